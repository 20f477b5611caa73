import { haversineMiles } from '../../src/area/geo';
import type { RadiusQuery } from '../../src/area/spatial-search';

/** The columns a radius search reads, as the facility table holds them. */
export type PlacedFacility = {
  registry_id: string;
  /** Null: no coordinates, never in an area. */
  lat: number | null;
  lng: number | null;
  overall_score: number;
  active_enforcement: boolean | number;
  fac_state: string;
};

/**
 * The reference answer: every facility's distance, filters, the documented order, the first
 * `limit`. Slow on purpose (no cells, no pruning, one object per facility); the property tests
 * hold the fast search to it (scripts/bench-area.ts times its own scan over the typed arrays).
 */
export function bruteForceRadius<T extends PlacedFacility>(rows: Iterable<T>, q: RadiusQuery): { row: T; distance: number }[] {
  const found: { row: T; distance: number }[] = [];
  for (const row of rows) {
    if (row.lat === null || row.lng === null) continue;
    if (q.state !== null && row.fac_state !== q.state) continue;
    if (q.activeEnforcement !== null && Boolean(row.active_enforcement) !== q.activeEnforcement) continue;
    const distance = haversineMiles(q.lat, q.lng, row.lat, row.lng);
    if (distance <= q.radiusMiles) found.push({ row, distance });
  }
  const byId = (x: { row: T }, y: { row: T }) => (x.row.registry_id < y.row.registry_id ? -1 : x.row.registry_id > y.row.registry_id ? 1 : 0);
  found.sort(
    q.sort === 'score'
      ? (x, y) => x.row.overall_score - y.row.overall_score || x.distance - y.distance || byId(x, y)
      : (x, y) => x.distance - y.distance || byId(x, y),
  );
  return found.slice(0, q.limit);
}
