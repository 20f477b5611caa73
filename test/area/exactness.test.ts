import { describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { bruteForceRadius } from '../support/brute-force';
import { EARTH_RADIUS_MILES } from '../../src/area/geo';
import { registryIdAt, type SpatialIndex } from '../../src/area/spatial-index';
import { buildSpatialIndex } from '../../src/index/area/spatial-columns';
import { countRadius, eachWithin, searchRadius, type RadiusQuery } from '../../src/area/spatial-search';
import type { FacilityRow } from '../../src/index/model';
import { memoryIndex } from '../helpers';
import { PLACES, cluster, destination, placed, rng, type Place } from './fixtures';

const places = Object.values(PLACES);

/** The fast answer and the brute-force answer as comparable lists of "id@exact distance". */
function both(s: SpatialIndex, rows: FacilityRow[], q: RadiusQuery) {
  const fast = searchRadius(s, q).map((h) => `${registryIdAt(s, h.pos)}@${h.distance}`);
  const slow = bruteForceRadius(rows, q).map((h) => `${h.row.registry_id}@${h.distance}`);
  return { fast, slow };
}

type QueryParts = {
  centre: { lat: number; lng: number };
  bearing: number;
  offsetMiles: number;
  radiusMiles: number;
  limit: number;
  sort: 'distance' | 'score';
  state: string | null;
  activeEnforcement: boolean | null;
};

const queryAround = (centres: readonly { lat: number; lng: number }[]): fc.Arbitrary<QueryParts> =>
  fc.record({
    centre: fc.constantFrom(...centres),
    bearing: fc.double({ min: 0, max: 360, noNaN: true }),
    offsetMiles: fc.double({ min: 0, max: 30, noNaN: true }),
    radiusMiles: fc.oneof(fc.double({ min: 0.001, max: 25, noNaN: true }), fc.constantFrom(0.001, 1, 5, 10, 25)),
    limit: fc.oneof(fc.integer({ min: 1, max: 500 }), fc.constantFrom(1, 100, 500)),
    sort: fc.constantFrom('distance' as const, 'score' as const),
    state: fc.constantFrom(null, 'TX', 'AK', 'NV', 'PR', 'GU', 'HI', 'IL'),
    activeEnforcement: fc.constantFrom(null, true, false),
  });

function toQuery(v: QueryParts): RadiusQuery {
  const c = destination(v.centre.lat, v.centre.lng, v.bearing, v.offsetMiles, EARTH_RADIUS_MILES);
  return { lat: c.lat, lng: c.lng, radiusMiles: v.radiusMiles, limit: v.limit, sort: v.sort, state: v.state, activeEnforcement: v.activeEnforcement };
}

describe('radius search equals a brute-force scan of every facility', () => {
  const rand = rng(20261115);
  const rows = places.flatMap((p) => cluster(rand, p, 1_200, 40, EARTH_RADIUS_MILES));
  const spatial = buildSpatialIndex(memoryIndex(rows));

  it('holds the fixture the property tests run on (every region, stacked points, awkward IDs)', () => {
    expect(spatial.count).toBe(rows.length);
    expect(new Set(rows.map((r) => `${r.lat},${r.lng}`)).size).toBeLessThan(rows.length);
    expect(spatial.idOther.size).toBeGreaterThan(0);
    expect(rows.some((r) => r.lng! > 179.5) && rows.some((r) => r.lng! < -179.5)).toBe(true);
  });

  it('for random centres, radii, limits, sorts and filters around Houston, Chicago, the Aleutians, Hawaii, Puerto Rico, Guam and a pentagon', () => {
    fc.assert(
      fc.property(queryAround(places), (v) => {
        const { fast, slow } = both(spatial, rows, toQuery(v));
        expect(fast).toEqual(slow);
      }),
      { numRuns: 400, seed: 4 },
    );
  });

  it('the count of matches before the limit equals the brute force scan without a limit (the exports\' X-Total-Count)', () => {
    fc.assert(
      fc.property(queryAround(places), (v) => {
        const q = toQuery(v);
        expect(countRadius(spatial, q)).toBe(bruteForceRadius(rows, { ...q, limit: Infinity }).length);
      }),
      { numRuns: 300, seed: 7 },
    );
  });

  it('with a reach per facility, visits exactly those within their own reach, each with its exact distance', () => {
    // reaches by registry ID from a few fixed values: none (-1), zero, fractions of the radius, the radius itself
    const reachOfId = (id: string, radius: number) => [-1, 0, 0.1, 0.25, 0.5, 1][id.charCodeAt(id.length - 1) % 6]! * radius;
    fc.assert(
      fc.property(queryAround(places), (v) => {
        const q = toQuery(v);
        const seen: string[] = [];
        eachWithin(spatial, q, (pos, d) => seen.push(`${registryIdAt(spatial, pos)}@${d}`), (pos) => reachOfId(registryIdAt(spatial, pos), q.radiusMiles));
        const want = bruteForceRadius(rows, { ...q, limit: Infinity })
          .filter((h) => h.distance <= reachOfId(h.row.registry_id, q.radiusMiles))
          .map((h) => `${h.row.registry_id}@${h.distance}`);
        expect(seen.sort()).toEqual(want.sort());
      }),
      { numRuns: 300, seed: 11 },
    );
  });

  it('for circles straddling the antimeridian in the Aleutians, found on both sides of 180°', () => {
    const q: RadiusQuery = { lat: 51.95, lng: 179.99, radiusMiles: 25, limit: 500, sort: 'distance', state: null, activeEnforcement: null };
    const { fast, slow } = both(spatial, rows, q);
    expect(fast).toEqual(slow);
    const lngs = searchRadius(spatial, q).map((h) => spatial.lng[h.pos]!);
    expect(lngs.some((l) => l < 0) && lngs.some((l) => l > 0)).toBe(true);
  });
});

describe('nearest-first search stops at the right ring', () => {
  // Dense and uniform: the k-th nearest lies close to ring boundaries, where stopping a ring
  // early or late shows.
  const rand = rng(99);
  const rows = [PLACES.chicago, PLACES.aleutiansEast, PLACES.pentagon].flatMap((p) => cluster(rand, p, 2_500, 12, EARTH_RADIUS_MILES));
  const spatial = buildSpatialIndex(memoryIndex(rows));

  it('for every limit from 1 to 500 around dense clusters', () => {
    fc.assert(
      fc.property(queryAround([PLACES.chicago, PLACES.aleutiansEast, PLACES.pentagon]), (v) => {
        const q = { ...toQuery(v), sort: 'distance' as const, state: null, activeEnforcement: null, radiusMiles: 25 };
        const { fast, slow } = both(spatial, rows, q);
        expect(fast).toEqual(slow);
      }),
      { numRuns: 300, seed: 11 },
    );
  });
});

describe('radius search decides points on the boundary exactly as the brute force does', () => {
  it('for facilities placed at the radius give or take a millionth, with clutter, at every awkward place', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...places),
        fc.double({ min: 0.01, max: 25, noNaN: true }),
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.constantFrom('distance' as const, 'score' as const),
        (place: Place, radiusMiles, seed, sort) => {
          const rand = rng(seed);
          const rows: FacilityRow[] = [];
          for (let i = 0; i < 120; i++) {
            const jitter = [0, 1e-9, -1e-9, 1e-6, -1e-6][i % 5]!;
            rows.push(placed(rand, destination(place.lat, place.lng, rand() * 360, radiusMiles * (1 + jitter), EARTH_RADIUS_MILES), place.state));
          }
          rows.push(...cluster(rand, place, 60, radiusMiles * 1.5, EARTH_RADIUS_MILES));
          const s = buildSpatialIndex(memoryIndex(rows));
          const q: RadiusQuery = { lat: place.lat, lng: place.lng, radiusMiles, limit: 500, sort, state: null, activeEnforcement: null };
          const { fast, slow } = both(s, rows, q);
          expect(fast).toEqual(slow);
          // The ring of facilities placed at r(1 ± 1e-6) straddles the boundary: both outcomes occur.
          expect(slow.length).toBeGreaterThan(0);
          expect(slow.length).toBeLessThan(rows.length);
        },
      ),
      { numRuns: 60, seed: 7 },
    );
  });
});

describe('radius search on an empty index and far from any facility', () => {
  it('returns nothing for an empty index', () => {
    const s = buildSpatialIndex(memoryIndex([]));
    expect(searchRadius(s, { lat: 29.76, lng: -95.37, radiusMiles: 25, limit: 100, sort: 'distance', state: null, activeEnforcement: null })).toEqual([]);
  });

  it.each([
    ['the North Pole', 90, 0],
    ['the South Pole', -90, 180],
    ['mid-Pacific on the antimeridian', 0, 180],
    ['mid-Pacific on the antimeridian, negative side', 0, -180],
  ])('returns nothing at %s when the nearest facility is hundreds of miles away', (_name, lat, lng) => {
    const rand = rng(1);
    const s = buildSpatialIndex(memoryIndex(cluster(rand, PLACES.houston, 50, 5, EARTH_RADIUS_MILES)));
    expect(searchRadius(s, { lat, lng, radiusMiles: 25, limit: 500, sort: 'score', state: null, activeEnforcement: null })).toEqual([]);
  });
});
