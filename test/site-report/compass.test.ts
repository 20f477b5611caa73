import { describe, expect, it } from 'bun:test';
import { bandIndexOf, bearingDegrees, compassPoint, directionOf, DISTANCE_BANDS, roundBearing } from '../../src/site-report/compass';

describe('bearing and direction from the site', () => {
  it.each([
    ['due north', 40, -100, 40.01, -100, 0],
    ['due east on the equator', 0, 10, 0, 10.01, 90],
    ['due south', 40, -100, 39.99, -100, 180],
    ['due west on the equator', 0, 10, 0, 9.99, 270],
    ['east across the antimeridian (179.99 E to 179.99 W)', 0, 179.99, 0, -179.99, 90],
    ['west across the antimeridian (179.99 W to 179.99 E)', 0, -179.99, 0, 179.99, 270],
  ])('%s is %d°', (_name, lat1, lng1, lat2, lng2, want) => {
    expect(bearingDegrees(lat1, lng1, lat2, lng2)).toBeCloseTo(want, 6);
  });

  it.each([
    [0, 'N'], [11.24, 'N'], [11.25, 'NNE'], [45, 'NE'], [90, 'E'], [168.75, 'S'], [191.24, 'S'], [260, 'W'], [348.74, 'NNW'], [348.75, 'N'], [359.99, 'N'],
  ] as const)('%d° is %s (each point owns 22.5° centred on it)', (bearing, point) => {
    expect(compassPoint(bearing)).toBe(point);
  });

  it('closer than 0.02 mi is "on site", whatever the bearing; from 0.02 mi on it is a compass point', () => {
    expect(directionOf(0.0199, 135)).toBe('on site');
    expect(directionOf(0.02, 135)).toBe('SE');
  });

  it('a bearing shown to 1 decimal never reads 360', () => {
    expect(roundBearing(359.96)).toBe(0);
    expect(roundBearing(359.94)).toBe(359.9);
  });

  it.each([
    [0, 'on_site'], [0.0199, 'on_site'], [0.02, 'to_eighth'], [0.125, 'to_eighth'], [0.1251, 'to_quarter'], [0.25, 'to_quarter'],
    [0.5, 'to_half'], [0.75, 'to_one'], [1, 'to_one'], [1.0001, 'beyond_one'],
  ] as const)('%d mi falls in band %s (upper bounds inclusive)', (miles, band) => {
    expect(DISTANCE_BANDS[bandIndexOf(miles)]!.key).toBe(band);
  });
});
