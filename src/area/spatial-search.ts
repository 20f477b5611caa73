import { cellToLatLng, gridRing, latLngToCell } from 'h3-js';
import { DEG, EARTH_RADIUS_MILES, LB_EPSILON_MILES, cellRadiusBoundMiles, cosLat, haversinePre } from './geo';
import { MIXED_STATES, cellNumber, type SpatialIndex } from './spatial-index';
import { TopK } from './top-k';

/** A radius query as plain values (already validated). */
export type RadiusQuery = {
  lat: number;
  lng: number;
  radiusMiles: number;
  limit: number;
  sort: 'distance' | 'score';
  /** Upper-case state code, or null for any. */
  state: string | null;
  /** true/false filter, or null for any. */
  activeEnforcement: boolean | null;
};

/** A facility found: its position in the spatial index and its exact (unrounded) distance. */
export type Hit = { pos: number; distance: number };

// Far beyond any real query (25 miles is about 10 rings at resolution 6); reaching it is a bug.
const MAX_RINGS = 100_000;

/**
 * Facilities within `radiusMiles` (great-circle, inclusive) of the point that pass the filters,
 * best `limit` first by the query's sort. Exact: the same answer as scanning every facility.
 *
 * Cells are visited ring by ring around the query's own cell. Every point in a cell lies within
 * `cellRadiusBoundMiles` of the cell's centre, and a path from the query to any point crosses every
 * ring in between, so no facility in ring r or beyond is closer than the smallest
 * (centre distance - bound) over ring r: the walk stops when that exceeds the radius or, for
 * sort=distance, the k-th best distance so far. Within a ring, a cell is skipped when its own
 * facilities (centre distance - its radius, its lowest score, its flags) cannot qualify.
 */
export function searchRadius(s: SpatialIndex, q: RadiusQuery): Hit[] {
  const wantState = q.state === null ? -1 : (s.stateCode.get(q.state) ?? -2);
  if (wantState === -2 || s.count === 0) return [];
  const wantActive = q.activeEnforcement === null ? -1 : q.activeEnforcement ? 1 : 0;
  const byScore = q.sort === 'score';
  const R = q.radiusMiles;
  const qlat = q.lat, qlng = q.lng, qcos = cosLat(qlat);
  // |Δlat| alone bounds the great-circle distance from below: a free first test per facility.
  const band = (R / EARTH_RADIUS_MILES / DEG) * (1 + 1e-9) + 1e-9;
  const bound = cellRadiusBoundMiles(s.res);
  const top = new TopK(q.limit);
  const origin = latLngToCell(qlat, qlng, s.res);
  const cells: number[] = [], centreDistance: number[] = [];

  for (let r = 0; r < MAX_RINGS; r++) {
    const ring = r === 0 ? [origin] : gridRing(origin, r);
    let ringLb = Infinity;
    cells.length = 0;
    centreDistance.length = 0;
    for (const h of ring) {
      const c = cellNumber(s, h);
      let dc: number;
      let radius = bound;
      if (c >= 0) {
        dc = haversinePre(qlat, qlng, qcos, s.cellLat[c]!, s.cellLng[c]!, s.cellCos[c]!);
        cells.push(c);
        centreDistance.push(dc);
        // Belt and braces: the bound holds for every point H3 assigns (tested), but the data decides.
        if (s.cellRadius[c]! > radius) radius = s.cellRadius[c]!;
      } else {
        const [clat, clng] = cellToLatLng(h);
        dc = haversinePre(qlat, qlng, qcos, clat, clng, cosLat(clat));
      }
      if (dc - radius < ringLb) ringLb = dc - radius;
    }
    ringLb -= LB_EPSILON_MILES;
    if (ringLb > R) break;
    if (!byScore && top.full && top.worstA < ringLb) break;

    for (let j = 0; j < cells.length; j++) {
      const c = cells[j]!;
      const lb = centreDistance[j]! - s.cellRadius[c]! - LB_EPSILON_MILES;
      if (lb > R) continue;
      if (wantActive === 1 && s.cellActive[c] === 0) continue;
      if (wantState >= 0 && s.cellState[c] !== MIXED_STATES && s.cellState[c] !== wantState) continue;
      if (top.full && (byScore ? s.cellMinScore[c]! > top.worstA : lb > top.worstA)) continue;
      const to = s.cellStart[c + 1]!;
      for (let k = s.cellStart[c]!; k < to; k++) {
        // Facilities in a cell are sorted by score: once one is worse than the k-th kept, all are.
        if (byScore && top.full && s.score[k]! > top.worstA) break;
        if (wantActive >= 0 && (s.flags[k]! & 1) !== wantActive) continue;
        if (wantState >= 0 && s.state[k] !== wantState) continue;
        const dlat = s.lat[k]! - qlat;
        if (dlat > band || dlat < -band) continue;
        const d = haversinePre(qlat, qlng, qcos, s.lat[k]!, s.lng[k]!, s.cos[k]!);
        if (d > R) continue;
        if (byScore) top.offer(s.score[k]!, d, s.rank[k]!, k);
        else top.offer(d, 0, s.rank[k]!, k);
      }
    }
    if (r === MAX_RINGS - 1) throw new Error('radius search did not terminate');
  }
  return top.sorted().map((e) => ({ pos: e.pos, distance: byScore ? e.b : e.a }));
}

/**
 * How many facilities `searchRadius` would find without a limit. Asked only by the export forms,
 * which say in headers when their list was cut at `limit` (a file has no `total` to read).
 */
export function countRadius(s: SpatialIndex, q: Omit<RadiusQuery, 'limit' | 'sort'>): number {
  let n = 0;
  eachWithin(s, q, () => n++);
  return n;
}

/**
 * Calls `visit` with the position and exact distance of every facility `searchRadius` would find
 * without a limit, in no particular order: the same ring walk and cell tests, without the pruning
 * (and the cost) of a top-k. For callers that keep a few of thousands (the site report).
 *
 * `reachOf`, when given, is a facility's own radius (at most the query's; negative: not wanted),
 * and a facility is visited only within it. A caller that wants each kind of facility within its
 * own distance (the site report: every facility within 1/4 mile, an SNC one within 1 mile) then has
 * most of a dense walk's facilities ruled out by their latitude alone, with no distance computed.
 */
export function eachWithin(s: SpatialIndex, q: Omit<RadiusQuery, 'limit' | 'sort'>, visit: (pos: number, distance: number) => void, reachOf?: (pos: number) => number): void {
  const wantState = q.state === null ? -1 : (s.stateCode.get(q.state) ?? -2);
  if (wantState === -2 || s.count === 0) return;
  const wantActive = q.activeEnforcement === null ? -1 : q.activeEnforcement ? 1 : 0;
  const R = q.radiusMiles;
  const qlat = q.lat, qlng = q.lng, qcos = cosLat(qlat);
  const band = (R / EARTH_RADIUS_MILES / DEG) * (1 + 1e-9) + 1e-9;
  const bound = cellRadiusBoundMiles(s.res);
  const origin = latLngToCell(qlat, qlng, s.res);
  for (let r = 0; r < MAX_RINGS; r++) {
    let ringLb = Infinity;
    for (const h of r === 0 ? [origin] : gridRing(origin, r)) {
      const c = cellNumber(s, h);
      if (c < 0) {
        const [clat, clng] = cellToLatLng(h);
        ringLb = Math.min(ringLb, haversinePre(qlat, qlng, qcos, clat, clng, cosLat(clat)) - bound);
        continue;
      }
      const dc = haversinePre(qlat, qlng, qcos, s.cellLat[c]!, s.cellLng[c]!, s.cellCos[c]!);
      ringLb = Math.min(ringLb, dc - Math.max(bound, s.cellRadius[c]!));
      if (dc - s.cellRadius[c]! - LB_EPSILON_MILES > R) continue;
      if (wantActive === 1 && s.cellActive[c] === 0) continue;
      if (wantState >= 0 && s.cellState[c] !== MIXED_STATES && s.cellState[c] !== wantState) continue;
      const to = s.cellStart[c + 1]!;
      for (let k = s.cellStart[c]!; k < to; k++) {
        if (wantActive >= 0 && (s.flags[k]! & 1) !== wantActive) continue;
        if (wantState >= 0 && s.state[k] !== wantState) continue;
        let reach = R, reachBand = band;
        if (reachOf !== undefined) {
          reach = reachOf(k);
          if (reach < 0) continue;
          reachBand = (reach / EARTH_RADIUS_MILES / DEG) * (1 + 1e-9) + 1e-9;
        }
        const dlat = s.lat[k]! - qlat;
        if (dlat > reachBand || dlat < -reachBand) continue;
        const d = haversinePre(qlat, qlng, qcos, s.lat[k]!, s.lng[k]!, s.cos[k]!);
        if (d <= reach) visit(k, d);
      }
    }
    if (ringLb - LB_EPSILON_MILES > R) return;
  }
  throw new Error('radius walk did not terminate');
}
