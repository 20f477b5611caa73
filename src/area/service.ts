import type { FacilityIndex } from '../index/facility-index';
import type { AreaResult } from './model';
import { registryIdAt, type SpatialIndex } from './spatial-index';
import { searchRadius, type RadiusQuery } from './spatial-search';

/** Distances are shown to 3 decimals (about 5 feet); inclusion and order use the exact value. */
export function roundMiles(miles: number): number {
  return Math.round(miles * 1000) / 1000;
}

/**
 * Spec 4.3: facilities within the radius, filtered, best `limit` first. The spatial index picks
 * and orders them; SQLite is read once, for the names of the rows returned.
 */
export function findWithinRadius(index: FacilityIndex, spatial: SpatialIndex, q: RadiusQuery): AreaResult {
  const hits = searchRadius(spatial, q);
  const ids = hits.map((h) => registryIdAt(spatial, h.pos));
  const briefs = index.getBriefs(ids);
  const facilities = hits.map((h, i) => {
    const brief = briefs.get(ids[i]!);
    // The spatial index was built from this very file, opened read-only: a miss is a bug.
    if (!brief) throw new Error(`spatial index and facility table disagree about ${ids[i]}`);
    return {
      registry_id: brief.registry_id,
      fac_name: brief.fac_name,
      overall_score: spatial.score[h.pos]!,
      active_enforcement: (spatial.flags[h.pos]! & 1) === 1,
      distance_miles: roundMiles(h.distance),
    };
  });
  return { center: { lat: q.lat, lng: q.lng }, radius_miles: q.radiusMiles, facilities, total: facilities.length };
}
