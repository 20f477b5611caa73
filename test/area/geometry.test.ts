import { describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { cellToBoundary, cellToLatLng, getPentagons, gridDisk, latLngToCell } from 'h3-js';
import { EARTH_RADIUS_MILES, cellRadiusBoundMiles, haversineMiles } from '../../src/area/geo';
import { TopK } from '../../src/area/top-k';
import { rng } from './fixtures';

/** Great-circle distance by the vector (atan2) formula: independent of the haversine under test. */
function vectorMiles(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const r = Math.PI / 180;
  const v = (la: number, lo: number) => [Math.cos(la * r) * Math.cos(lo * r), Math.cos(la * r) * Math.sin(lo * r), Math.sin(la * r)] as const;
  const [a, b] = [v(lat1, lng1), v(lat2, lng2)];
  const cross = Math.hypot(a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]);
  const dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  return Math.atan2(cross, dot) * EARTH_RADIUS_MILES;
}

describe('distance in miles', () => {
  it('uses the mean Earth radius of 3,958.76 miles', () => {
    expect(EARTH_RADIUS_MILES).toBeCloseTo(3958.7613, 3);
  });

  it.each([
    ['one degree of latitude', 0, 0, 1, 0, 69.093],
    ['one degree of longitude on the equator', 0, 0, 0, 1, 69.093],
    ['across the antimeridian in the Aleutians', 52, 179.5, 52, -179.5, 42.54],
    ['equator to pole (a quarter meridian, πR/2)', 0, -95, 90, 10, 6218.4],
  ])('%s', (_name, lat1, lng1, lat2, lng2, expected) => {
    expect(haversineMiles(lat1, lng1, lat2, lng2)).toBeCloseTo(expected, 1);
  });

  it('agrees with the vector formula to a millionth of a mile anywhere on Earth', () => {
    const lat = fc.double({ min: -90, max: 90, noNaN: true });
    const lng = fc.double({ min: -180, max: 180, noNaN: true });
    fc.assert(
      fc.property(lat, lng, lat, lng, (a, b, c, d) => {
        expect(Math.abs(haversineMiles(a, b, c, d) - vectorMiles(a, b, c, d))).toBeLessThan(1e-6 * Math.max(1, haversineMiles(a, b, c, d)));
      }),
      { numRuns: 2_000, seed: 3 },
    );
  });

  it('is symmetric to the bit, so query-to-facility and facility-to-query never disagree', () => {
    fc.assert(
      fc.property(fc.double({ min: -90, max: 90, noNaN: true }), fc.double({ min: -180, max: 180, noNaN: true }), fc.double({ min: -90, max: 90, noNaN: true }), fc.double({ min: -180, max: 180, noNaN: true }), (a, b, c, d) => {
        expect(haversineMiles(a, b, c, d)).toBe(haversineMiles(c, d, a, b));
      }),
      { numRuns: 2_000, seed: 5 },
    );
  });
});

describe('the H3 cell radius bound the search relies on', () => {
  it.each([5, 6, 7])('no cell at resolution %i, pentagons and their neighbours included, reaches beyond it', (res) => {
    const rand = rng(res);
    const cells = new Set<string>();
    for (let i = 0; i < 4_000; i++) cells.add(latLngToCell((Math.asin(2 * rand() - 1) * 180) / Math.PI, rand() * 360 - 180, res));
    for (const p of getPentagons(res)) for (const c of gridDisk(p, 2)) cells.add(c);
    const bound = cellRadiusBoundMiles(res);
    let largest = 0;
    for (const c of cells) {
      const [clat, clng] = cellToLatLng(c);
      for (const [vlat, vlng] of cellToBoundary(c)) largest = Math.max(largest, haversineMiles(clat, clng, vlat, vlng));
    }
    expect(largest).toBeLessThanOrEqual(bound);
    // ...and it is tight: the largest cells (at icosahedron face centres) come within 1%.
    expect(largest).toBeGreaterThan(bound * 0.99);
  });

  it('also bounds the distance from a cell centre to every point latLngToCell puts in the cell', () => {
    const rand = rng(17);
    const bound = cellRadiusBoundMiles(6);
    for (let i = 0; i < 20_000; i++) {
      const lat = (Math.asin(2 * rand() - 1) * 180) / Math.PI, lng = rand() * 360 - 180;
      const [clat, clng] = cellToLatLng(latLngToCell(lat, lng, 6));
      expect(haversineMiles(clat, clng, lat, lng)).toBeLessThanOrEqual(bound);
    }
  });
});

describe('TopK keeps the k smallest (a, b, rank) keys', () => {
  it('in the same order as sorting everything', () => {
    const entry = fc.record({ a: fc.integer({ min: 0, max: 5 }), b: fc.integer({ min: 0, max: 5 }) });
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 300 }), fc.integer({ min: 1, max: 50 }), (entries, k) => {
        const top = new TopK(k);
        entries.forEach((e, i) => top.offer(e.a, e.b, i, i));
        const expected = entries
          .map((e, i) => ({ ...e, i }))
          .sort((x, y) => x.a - y.a || x.b - y.b || x.i - y.i)
          .slice(0, k)
          .map((e) => e.i);
        expect(top.sorted().map((e) => e.pos)).toEqual(expected);
      }),
      { numRuns: 500, seed: 9 },
    );
  });
});
