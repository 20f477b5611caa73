import type { Location } from '../index/model';
import type { DatasetMeta } from '../shared/envelope';

export type { Location };

/**
 * An RFC 7946 FeatureCollection: one Point feature per item at `[lng, lat]` (longitude first, as
 * the RFC requires), the item's fields as its properties (nested objects kept as objects), its
 * registry ID as the feature id. An item's `location`, if it has one, is the geometry and is not
 * repeated among the properties; without one the geometry is null (RFC 7946 3.2: an unlocated feature).
 * The dataset is the collection's `metadata`, a foreign member (RFC 7946 6.1) that a file passed on keeps.
 */
export function toGeoJson(items: readonly Record<string, unknown>[], locate: (item: Record<string, unknown>) => Location, dataset: DatasetMeta): string {
  const features = items.map((item) => {
    const place = locate(item);
    const { location: _location, ...properties } = item;
    return {
      type: 'Feature',
      id: item.registry_id,
      geometry: place === null ? null : { type: 'Point', coordinates: [place.lng, place.lat] },
      properties,
    };
  });
  return JSON.stringify({ type: 'FeatureCollection', metadata: dataset, features });
}
