import { createRequire } from 'node:module';
import type { ZipRecord } from '../../src/address/zip-table';
import { ensureZipTable } from '../zip-table';
import type { Rng } from './rng';

/** A real US place (a ZIP centre of the bundled ZIP table, data/zip-table.tsv) that invented facilities cluster around. */
export type Place = { zip: string; city: string; state: string; lat: number; lng: number; metro: boolean };

/** US states, DC and the territories ECHO covers; military (AA/AE/AP) and freely associated states are left out. */
const STATES = new Set(
  ('AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA ' +
    'RI SC SD TN TX UT VT VA WA WV WI WY PR VI GU AS MP').split(' '),
);

/** Dense industrial metros and their pull: ZIPs near them get extra weight, so facilities cluster the way ECHO's do. */
const METROS: readonly [name: string, lat: number, lng: number, boost: number][] = [
  ['Houston', 29.76, -95.37, 14], ['Chicago', 41.88, -87.63, 12], ['Los Angeles', 34.05, -118.24, 12],
  ['New York', 40.71, -74.01, 9], ['Dallas', 32.78, -96.8, 7], ['Philadelphia', 39.95, -75.17, 6],
  ['Detroit', 42.33, -83.05, 6], ['Atlanta', 33.75, -84.39, 5], ['Phoenix', 33.45, -112.07, 5],
  ['Baton Rouge', 30.45, -91.19, 6], ['New Orleans', 29.95, -90.07, 4], ['Beaumont', 30.08, -94.13, 6],
  ['Corpus Christi', 27.8, -97.4, 4], ['Pittsburgh', 40.44, -80.0, 5], ['Cleveland', 41.5, -81.69, 5],
  ['St. Louis', 38.63, -90.2, 4], ['Minneapolis', 44.98, -93.27, 4], ['Seattle', 47.61, -122.33, 4],
  ['San Francisco', 37.77, -122.42, 4], ['Denver', 39.74, -104.99, 3], ['Miami', 25.76, -80.19, 3],
  ['Boston', 42.36, -71.06, 3], ['Charlotte', 35.23, -80.84, 3], ['Kansas City', 39.1, -94.58, 3],
  ['Indianapolis', 39.77, -86.16, 3], ['Cincinnati', 39.1, -84.51, 3], ['Milwaukee', 43.04, -87.91, 3],
  ['San Antonio', 29.42, -98.49, 3], ['Tulsa', 36.15, -95.99, 3], ['Salt Lake City', 40.76, -111.89, 2],
  ['Portland', 45.52, -122.68, 2], ['Baltimore', 39.29, -76.61, 3], ['Birmingham', 33.52, -86.8, 3],
  ['Bakersfield', 35.37, -119.02, 3], ['Anchorage', 61.22, -149.9, 2], ['Honolulu', 21.31, -157.86, 2],
  ['San Juan', 18.47, -66.11, 3],
];
const METRO_RADIUS_KM = 45;

/** Far-flung places always given weight so every sample reaches them (antimeridian, Pacific, Caribbean). */
const REMOTE_BOOST: Record<string, number> = { '99546': 8, '99547': 4, '99685': 8, '99692': 6, '99660': 3, '96910': 6, '96913': 4, '96799': 3, '96950': 3 };

/** Shemya (Aleutians, east of the antimeridian) is not a ZIP centre in the table; added by hand. */
const EXTRA: readonly Place[] = [{ zip: '99546', city: 'SHEMYA', state: 'AK', lat: 52.7236, lng: 174.1139, metro: false }];

function distanceKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const r = Math.PI / 180;
  const dLat = (lat2 - lat1) * r, dLng = (lng2 - lng1) * r;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(dLng / 2) ** 2;
  return 12742 * Math.asin(Math.sqrt(h));
}

/** The weighted place table; sample from it with `pickPlace`. Deterministic (the table's rows, in ZIP order). */
let built: { places: Place[]; cumulative: Float64Array } | null = null;

export function buildPlaces(): { places: Place[]; cumulative: Float64Array } {
  built ??= computePlaces();
  return built;
}

/**
 * The service's ZIP table (src/address/zip-table.ts), so the sample and the service read one ZIP
 * truth. Made first when missing (a fresh checkout): that module embeds the file, so it is required
 * only once the file is there.
 */
function bundledZips(): ZipRecord[] {
  ensureZipTable();
  const table = createRequire(import.meta.url)('../../src/address/zip-table') as typeof import('../../src/address/zip-table');
  return table.allZips();
}

function computePlaces(): { places: Place[]; cumulative: Float64Array } {
  const places: Place[] = [];
  const weights: number[] = [];
  for (const c of bundledZips()) {
    if (!STATES.has(c.state) || (c.lat === 0 && c.lng === 0)) continue;
    let w = 1;
    for (const [, lat, lng, boost] of METROS) {
      const d = distanceKm(c.lat, c.lng, lat, lng);
      if (d < 3 * METRO_RADIUS_KM) w += boost * Math.exp(-((d / METRO_RADIUS_KM) ** 2));
    }
    w += REMOTE_BOOST[c.zip] ?? 0;
    places.push({ zip: c.zip, city: c.city.toUpperCase(), state: c.state, lat: c.lat, lng: c.lng, metro: w > 2 });
    weights.push(w);
  }
  for (const p of EXTRA) {
    places.push(p);
    weights.push(20);
  }
  const cumulative = new Float64Array(weights.length);
  let sum = 0;
  weights.forEach((w, i) => (cumulative[i] = sum += w));
  return { places, cumulative };
}

export function pickPlace(table: { places: Place[]; cumulative: Float64Array }, rng: Rng): Place {
  const { places, cumulative } = table;
  const r = rng.next() * cumulative[cumulative.length - 1]!;
  let lo = 0, hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid]! > r) hi = mid;
    else lo = mid + 1;
  }
  return places[lo]!;
}

/** A point scattered around the place: ~1.5 km in metros, ~4 km elsewhere; longitude wrapped to [-180, 180]. */
export function scatter(place: Place, rng: Rng): { lat: number; lng: number } {
  const sigmaKm = place.metro ? 1.5 : 4;
  const lat = Math.max(-89.9, Math.min(89.9, place.lat + (rng.normal() * sigmaKm) / 111.2));
  let lng = place.lng + (rng.normal() * sigmaKm) / (111.2 * Math.cos((place.lat * Math.PI) / 180));
  if (lng > 180) lng -= 360;
  if (lng < -180) lng += 360;
  return { lat: Math.round(lat * 1e6) / 1e6, lng: Math.round(lng * 1e6) / 1e6 };
}

const EPA_REGION: Record<string, string> = {};
for (const [region, states] of Object.entries({
  '01': 'CT ME MA NH RI VT', '02': 'NJ NY PR VI', '03': 'DE DC MD PA VA WV', '04': 'AL FL GA KY MS NC SC TN',
  '05': 'IL IN MI MN OH WI', '06': 'AR LA NM OK TX', '07': 'IA KS MO NE', '08': 'CO MT ND SD UT WY',
  '09': 'AZ CA HI NV AS GU MP', '10': 'AK ID OR WA',
})) for (const s of states.split(' ')) EPA_REGION[s] = region;

export function epaRegion(state: string): string {
  return EPA_REGION[state] ?? '';
}
