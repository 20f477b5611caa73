import { DEG } from '../area/geo';

/** Closer than this (miles, about 100 feet), a facility is "on site": a bearing would mean nothing. */
export const ON_SITE_MILES = 0.02;

export const COMPASS_POINTS = ['N', 'NNE', 'NE', 'ENE', 'E', 'ESE', 'SE', 'SSE', 'S', 'SSW', 'SW', 'WSW', 'W', 'WNW', 'NW', 'NNW'] as const;
export type Direction = (typeof COMPASS_POINTS)[number] | 'on site';

/**
 * Initial great-circle bearing from the site to a facility, degrees clockwise from true north in
 * [0, 360). Longitudes enter only through sin/cos of their difference, so a pair across the
 * antimeridian (179.99°E to 179.99°W) gets the short way round.
 */
export function bearingDegrees(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const p1 = lat1 * DEG;
  const p2 = lat2 * DEG;
  const dl = (lng2 - lng1) * DEG;
  const y = Math.sin(dl) * Math.cos(p2);
  const x = Math.cos(p1) * Math.sin(p2) - Math.sin(p1) * Math.cos(p2) * Math.cos(dl);
  const deg = Math.atan2(y, x) / DEG;
  const wrapped = deg < 0 ? deg + 360 : deg;
  return wrapped >= 360 ? 0 : wrapped;
}

/** A bearing to 1 decimal, as reports show it (359.96° shows as 0). */
export function roundBearing(bearing: number): number {
  const r = Math.round(bearing * 10) / 10;
  return r >= 360 ? 0 : r;
}

/** The 16-point compass direction of a bearing: each point owns 22.5°, centred on it (N: 348.75° to 11.25°). */
export function compassPoint(bearing: number): (typeof COMPASS_POINTS)[number] {
  return COMPASS_POINTS[Math.round(bearing / 22.5) % 16]!;
}

/** Direction of a facility from the site: `on site` within ON_SITE_MILES, else its compass point. */
export function directionOf(distanceMiles: number, bearing: number): Direction {
  return distanceMiles < ON_SITE_MILES ? 'on site' : compassPoint(bearing);
}

/**
 * Distance bands of the summary, by the exact (unrounded) distance: on site below 0.02 mi, then up
 * to and including 1/8, 1/4, 1/2 and 1 mile, then beyond. Upper bounds are inclusive, as a search
 * distance is ("within 1/4 mile" includes 0.25).
 */
export const DISTANCE_BANDS = [
  { key: 'on_site', label: 'On site', upTo: ON_SITE_MILES, inclusive: false },
  { key: 'to_eighth', label: '< 1/8 mi', upTo: 0.125, inclusive: true },
  { key: 'to_quarter', label: '1/8-1/4 mi', upTo: 0.25, inclusive: true },
  { key: 'to_half', label: '1/4-1/2 mi', upTo: 0.5, inclusive: true },
  { key: 'to_one', label: '1/2-1 mi', upTo: 1, inclusive: true },
  { key: 'beyond_one', label: '> 1 mi', upTo: Infinity, inclusive: true },
] as const;
export type BandKey = (typeof DISTANCE_BANDS)[number]['key'];

/** The place in DISTANCE_BANDS of the band of an exact distance. */
export function bandIndexOf(distanceMiles: number): number {
  for (let k = 0; k < DISTANCE_BANDS.length - 1; k++) {
    const b = DISTANCE_BANDS[k]!;
    if (b.inclusive ? distanceMiles <= b.upTo : distanceMiles < b.upTo) return k;
  }
  return DISTANCE_BANDS.length - 1;
}
