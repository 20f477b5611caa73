import type { AreaResult } from './model';
import { registryIdAt, type SpatialIndex } from './spatial-index';
import { nameAt } from './text-bytes';
import { countRadius, searchRadius, type RadiusQuery } from './spatial-search';

/** Distances are shown to 3 decimals (about 5 feet); inclusion and order use the exact value. */
export function roundMiles(miles: number): number {
  return Math.round(miles * 1000) / 1000;
}

/**
 * The area search (docs/area-and-portfolio.md): facilities within the radius, filtered, best `limit` first. The spatial index picks
 * and orders them and holds everything an answer shows (ID, name, score, flags): no SQLite read, so
 * a 500-row answer touches no page of the index file (scripts/bench-tails.ts measures the tails).
 * `insufficientBit`: the site-fact bit saying the data is not enough to judge (src/index/site-facts.ts
 * SITE_BIT, a layer above this one).
 */
export function findWithinRadius(spatial: SpatialIndex, q: RadiusQuery, insufficientBit: number): AreaResult {
  const hits = searchRadius(spatial, q);
  const facilities = hits.map((h) => ({
    registry_id: registryIdAt(spatial, h.pos),
    fac_name: nameAt(spatial, h.pos),
    overall_score: spatial.score[h.pos]!,
    active_enforcement: (spatial.flags[h.pos]! & 1) === 1,
    distance_miles: roundMiles(h.distance),
    data_sufficient: (spatial.site[h.pos]! & insufficientBit) === 0,
  }));
  return { center: { lat: q.lat, lng: q.lng }, radius_miles: q.radiusMiles, facilities, total: facilities.length };
}

/** How many facilities the query matches without its `limit` (the export forms' `X-Total-Count`). */
export function countWithinRadius(spatial: SpatialIndex, q: RadiusQuery): number {
  return countRadius(spatial, q);
}
