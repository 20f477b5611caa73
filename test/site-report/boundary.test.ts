import { describe, expect, it } from 'bun:test';
import { buildSpatialIndex } from '../../src/index/area/spatial-columns';
import { defaultDistances } from '../../src/site-report/categories';
import { distanceToParcel, insideParcel, parcelOf, type Parcel } from '../../src/site-report/boundary';
import type { LocatedSite } from '../../src/site-report/locate';
import { checkSiteRequest, polygonsOf, type SiteBoundary } from '../../src/site-report/request';
import { buildSiteReport } from '../../src/site-report/service';
import { AppError } from '../../src/errors';
import { memoryIndex } from '../helpers';
import { destination, rng } from '../area/fixtures';
import { expectedCategories, R_MILES, scatter } from './fixtures';

const rad = (d: number) => (d * Math.PI) / 180;
/** Haversine, written here again: the reference does not share the service's code. */
function hav(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const a = Math.sin(rad(lat2 - lat1) / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(rad(lng2 - lng1) / 2) ** 2;
  return 2 * R_MILES * Math.asin(Math.min(1, Math.sqrt(a)));
}
const wrap = (d: number) => ((d + 540) % 360) - 180;

/** Winding number of a ring around a point, on a local plane (longitude differences wrapped): not ray casting. */
function winds(ring: number[][], lat: number, lng: number): boolean {
  let total = 0;
  for (let i = 0; i + 1 < ring.length; i++) {
    const a = Math.atan2(ring[i]![1]! - lat, wrap(ring[i]![0]! - lng) * Math.cos(rad(lat)));
    const b = Math.atan2(ring[i + 1]![1]! - lat, wrap(ring[i + 1]![0]! - lng) * Math.cos(rad(lat)));
    let d = b - a;
    if (d > Math.PI) d -= 2 * Math.PI;
    if (d < -Math.PI) d += 2 * Math.PI;
    total += d;
  }
  return Math.abs(total) > Math.PI;
}

/** Brute force: 0 inside (winding number), else the least haversine to 400 points along every edge. */
function bruteDistance(b: SiteBoundary, lat: number, lng: number): number {
  const polygons = polygonsOf(b);
  if (polygons.some((rings) => winds(rings[0]!, lat, lng) && !rings.slice(1).some((h) => winds(h, lat, lng)))) return 0;
  let best = Infinity;
  for (const rings of polygons) {
    for (const ring of rings) {
      for (let i = 0; i + 1 < ring.length; i++) {
        const [x0, y0] = ring[i]!, dx = wrap(ring[i + 1]![0]! - x0!), dy = ring[i + 1]![1]! - y0!;
        for (let k = 0; k <= 400; k++) best = Math.min(best, hav(lat, lng, y0! + (dy * k) / 400, x0! + (dx * k) / 400));
      }
    }
  }
  return best;
}

const ring = (pts: [number, number][]) => [...pts, pts[0]!];
/** A U-shaped (concave) parcel of about 0.4 mi near Houston: the notch opens north. */
const CONCAVE: SiteBoundary = { type: 'Polygon', coordinates: [ring([[-95.372, 29.758], [-95.366, 29.758], [-95.366, 29.764], [-95.368, 29.764], [-95.368, 29.760], [-95.370, 29.760], [-95.370, 29.764], [-95.372, 29.764]])] };
/** Two parcels, the second with a courtyard (a hole). */
const MULTI: SiteBoundary = {
  type: 'MultiPolygon',
  coordinates: [
    [ring([[-95.372, 29.758], [-95.369, 29.758], [-95.369, 29.761], [-95.372, 29.761]])],
    [ring([[-95.365, 29.760], [-95.360, 29.760], [-95.360, 29.765], [-95.365, 29.765]]), ring([[-95.3635, 29.7615], [-95.3615, 29.7615], [-95.3615, 29.7635], [-95.3635, 29.7635]])],
  ],
};
/** A parcel across the antimeridian (RFC 7946 would cut it; the positions here simply cross). */
const ACROSS: SiteBoundary = { type: 'Polygon', coordinates: [ring([[179.995, 51.875], [-179.996, 51.875], [-179.996, 51.884], [179.995, 51.884]])] };

const PARCELS = [['a concave parcel', CONCAVE], ['a MultiPolygon with a hole', MULTI], ['a parcel across the antimeridian', ACROSS]] as const;

describe.each(PARCELS)('distances from %s against brute force', (_name, boundary) => {
  const parcel = parcelOf(polygonsOf(boundary));
  const rand = rng(Math.round(parcel.centre.lat * 1000));
  const generated = scatter(rand, parcel.centre, 700, 1.5, 990_200_000_000);

  it('the exact distance to the boundary (0 inside) agrees with the densified haversine to 0.001 mi, inside and out', () => {
    let inside = 0;
    for (const { row } of generated) {
      const want = bruteDistance(boundary, row.lat!, row.lng!);
      if (want === 0) inside++;
      expect(Math.abs(distanceToParcel(parcel, row.lat!, row.lng!) - want)).toBeLessThan(0.001);
    }
    expect(inside).toBeGreaterThan(0);
  });

  it('the report lists each facility under the categories of its distance from the boundary: on_site inside, adjoining off it within 0.25 mi', () => {
    const index = memoryIndex(generated.map((g) => g.row));
    const site: LocatedSite = { lat: parcel.centre.lat, lng: parcel.centre.lng, located_by: 'boundary', approximate: false, zip: null, matched_registry_id: null, note: 'test' };
    const d = defaultDistances();
    const report = buildSiteReport(index, buildSpatialIndex(index), { site, name: null, address: null, distances: d, boundary });
    const got = new Map(report.findings.map((f) => [f.registry_id, f]));
    const thresholds = [0, ...Object.values(d)];
    let checked = 0;
    for (const { row, traits } of generated) {
      const miles = bruteDistance(boundary, row.lat!, row.lng!);
      if (miles > 0 && thresholds.some((t) => Math.abs(miles - t) < 0.002)) continue; // too close to a line to call by a densified edge
      const want = miles === 0 ? ['on_site', ...expectedCategories(traits, miles, d).filter((c) => c !== 'on_site' && c !== 'adjoining')] : expectedCategories(traits, Math.max(miles, 0.02), d);
      const finding = got.get(row.registry_id);
      checked++;
      if (want.length === 0) expect(finding).toBeUndefined();
      else {
        expect(finding?.categories).toEqual(want as never);
        expect(finding!.direction === 'on site').toBe(miles === 0);
      }
    }
    expect(checked).toBeGreaterThan(500);
    expect(report.site.boundary).toEqual(boundary);
    expect(report.summary.find((s) => s.category === 'on_site')!.counts.on_site).toBe(report.findings.filter((f) => f.categories.includes('on_site')).length);
  });
});

describe('a point site', () => {
  it('is on site within 0.02 mi (not adjoining), adjoining beyond it', () => {
    const at = { lat: 29.76, lng: -95.37 };
    const rows = scatter(rng(7), at, 1, 0, 990_300_000_000).map((g) => g.row);
    const near = { ...rows[0]!, registry_id: '990300000001', ...destination(at.lat, at.lng, 0, 0.01, R_MILES) };
    const next = { ...rows[0]!, registry_id: '990300000002', ...destination(at.lat, at.lng, 90, 0.1, R_MILES) };
    const index = memoryIndex([near, next]);
    const site: LocatedSite = { ...at, located_by: 'coordinates', approximate: false, zip: null, matched_registry_id: null, note: 'test' };
    const r = buildSiteReport(index, buildSpatialIndex(index), { site, name: null, address: null, distances: defaultDistances() });
    expect(r.findings.map((f) => [f.registry_id, f.categories.filter((c) => c === 'on_site' || c === 'adjoining'), f.direction])).toEqual([
      ['990300000001', ['on_site'], 'on site'],
      ['990300000002', ['adjoining'], 'E'],
    ]);
  });
});

describe('the request\'s boundary', () => {
  const body = (boundary: unknown) => ({ boundary });
  const refused = (b: unknown): AppError => {
    try {
      checkSiteRequest(body(b));
    } catch (e) {
      return e as AppError;
    }
    throw new Error('accepted');
  };
  it('a closed Polygon alone is a site', () => {
    expect(checkSiteRequest(body(CONCAVE)).boundary).toEqual(CONCAVE);
  });
  it.each([
    ['a string', 'square'],
    ['a Point', { type: 'Point', coordinates: [-95, 29] }],
    ['a ring not closed', { type: 'Polygon', coordinates: [[[-95, 29], [-94.9, 29], [-94.9, 29.1], [-95, 29.1]]] }],
    ['a ring of 3 positions', { type: 'Polygon', coordinates: [[[-95, 29], [-94.9, 29], [-95, 29]]] }],
    ['a latitude out of range', { type: 'Polygon', coordinates: [ring([[-95, 29], [-94.9, 95], [-94.9, 29.1]])] }],
    ['a position that is not numbers', { type: 'Polygon', coordinates: [ring([[-95, 29], ['x', 29], [-94.9, 29.1]] as never)] }],
    ['an extra member', { ...CONCAVE, crs: 'EPSG:3857' }],
    ['2,001 vertices', { type: 'Polygon', coordinates: [ring(Array.from({ length: 2001 }, (_, i) => [-95 + 0.01 * Math.cos((i / 2001) * 2 * Math.PI), 29 + 0.01 * Math.sin((i / 2001) * 2 * Math.PI)] as [number, number]))] }],
  ])('%s is 422 VALIDATION_ERROR naming boundary', (_what, b) => {
    const e = refused(b);
    expect(e.errorCode).toBe('VALIDATION_ERROR');
    expect(e.message).toStartWith('boundary ');
  });
  it('search_distances.on_site is refused: on site is not a distance', () => {
    const e = (() => { try { checkSiteRequest({ lat: 29, lng: -95, search_distances: { on_site: 0.1 } }); } catch (x) { return x as AppError; } })()!;
    expect(e.errorCode).toBe('VALIDATION_ERROR');
    expect(e.message).toContain('search_distances.on_site is not a distance');
  });
});

/** An irregular star-shaped ring of `n` vertices, 0.6-1.4 times `miles` from `at` (a surveyed lot's many vertices). */
function starRing(rand: () => number, at: { lat: number; lng: number }, n: number, miles = 0.15): number[][] {
  const pts: [number, number][] = [];
  for (let i = 0; i < n; i++) {
    const p = destination(at.lat, at.lng, ((i + (rand() - 0.5) * 0.66) / n) * 360, miles * (0.6 + 0.8 * rand()), R_MILES);
    pts.push([p.lng, p.lat]);
  }
  return ring(pts);
}

/**
 * The distance from a parcel measured at every edge, as the service's arithmetic has it (written
 * here again: its nearest point when the foot of the perpendicular is on the edge, else its nearer
 * end): what skipping runs of edges and cheap tests must not change, to the bit.
 */
function everyEdge(p: Parcel, lat: number, lng: number): number {
  if (insideParcel(p, lat, lng)) return 0;
  const unit = (la: number, ln: number) => [Math.cos(la * (Math.PI / 180)) * Math.cos(ln * (Math.PI / 180)), Math.cos(la * (Math.PI / 180)) * Math.sin(ln * (Math.PI / 180)), Math.sin(la * (Math.PI / 180))] as const;
  const angle = (ax: number, ay: number, az: number, bx: number, by: number, bz: number) => {
    const c = Math.sqrt((ax - bx) ** 2 + (ay - by) ** 2 + (az - bz) ** 2) / 2;
    return 2 * Math.asin(c < 1 ? c : 1);
  };
  const [px, py, pz] = unit(lat, lng);
  const e = p.edges;
  let best = Infinity;
  for (let i = 0; i < e.length; i += 9) {
    const [ax, ay, az, bx, by, bz, nx, ny, nz] = e.subarray(i, i + 9) as unknown as number[];
    const s = px * nx! + py * ny! + pz * nz!;
    const qx = px - s * nx!, qy = py - s * ny!, qz = pz - s * nz!;
    const onArc = (nx !== 0 || ny !== 0 || nz !== 0) &&
      (ay! * qz - az! * qy) * nx! + (az! * qx - ax! * qz) * ny! + (ax! * qy - ay! * qx) * nz! >= 0 &&
      (qy * bz! - qz * by!) * nx! + (qz * bx! - qx * bz!) * ny! + (qx * by! - qy * bx!) * nz! >= 0;
    best = Math.min(best, onArc ? Math.asin(Math.min(1, Math.abs(s))) : Math.min(angle(px, py, pz, ax!, ay!, az!), angle(px, py, pz, bx!, by!, bz!)));
  }
  return best * R_MILES;
}

describe('distances from a parcel of many vertices', () => {
  const rand = rng(42);
  const houston = { lat: 29.7604, lng: -95.3698 };
  const aleutians = { lat: 51.88, lng: 179.999 };
  const east = destination(houston.lat, houston.lng, 90, 0.5, R_MILES);
  const boundaries: [string, SiteBoundary][] = [
    ['a 500-vertex lot', { type: 'Polygon', coordinates: [starRing(rand, houston, 500)] }],
    ['a 2,000-vertex lot across the antimeridian', { type: 'Polygon', coordinates: [starRing(rand, aleutians, 2000)] }],
    ['two 300-vertex lots, one with a 100-vertex courtyard', {
      type: 'MultiPolygon',
      coordinates: [[starRing(rand, houston, 300)], [starRing(rand, east, 300), starRing(rand, east, 100, 0.05)]],
    }],
  ];

  it.each(boundaries)('%s: are those of measuring every edge, to the bit, inside and out to 2 miles', (_name, boundary) => {
    const parcel = parcelOf(polygonsOf(boundary));
    let inside = 0, near = 0;
    for (const { row } of scatter(rng(7), parcel.centre, 3000, 2, 990_300_000_000)) {
      const d = distanceToParcel(parcel, row.lat!, row.lng!);
      if (d === 0) inside++;
      else if (d < 0.05) near++;
      expect(d).toBe(everyEdge(parcel, row.lat!, row.lng!));
    }
    expect(inside).toBeGreaterThan(0);
    expect(near).toBeGreaterThan(0);
  });

  it.each(boundaries)('%s, asked within a reach: the same distance for a facility within it, one beyond it for the others', (_name, boundary) => {
    const parcel = parcelOf(polygonsOf(boundary));
    const rand = rng(9);
    let within = 0, beyond = 0;
    for (const { row } of scatter(rng(10), parcel.centre, 2000, 2, 990_300_200_000)) {
      const reach = rand() * 1.2;
      const exact = everyEdge(parcel, row.lat!, row.lng!);
      const got = distanceToParcel(parcel, row.lat!, row.lng!, reach);
      if (exact <= reach) {
        within++;
        expect(got).toBe(exact);
      } else {
        beyond++;
        expect(got).toBeGreaterThan(reach);
      }
    }
    expect(Math.min(within, beyond)).toBeGreaterThan(100);
  });

  it('agree with the densified haversine to 0.001 mi for a 500-vertex lot', () => {
    const boundary = boundaries[0]![1];
    const parcel = parcelOf(polygonsOf(boundary));
    for (const { row } of scatter(rng(8), parcel.centre, 25, 0.6, 990_300_100_000)) {
      expect(Math.abs(distanceToParcel(parcel, row.lat!, row.lng!) - bruteDistance(boundary, row.lat!, row.lng!))).toBeLessThan(0.001);
    }
  });
});
