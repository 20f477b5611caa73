import type { FacilityRow } from '../../src/index/model';
import { facility } from '../helpers';

/** Places the radius search must get right: dense metros, and the awkward ones. */
export const PLACES = {
  houston: { lat: 29.7604, lng: -95.3698, state: 'TX' },
  chicago: { lat: 41.8781, lng: -87.6298, state: 'IL' },
  // Adak, Aleutians: west of it the Aleutians cross 180°, so circles straddle the antimeridian.
  aleutiansEast: { lat: 51.88, lng: -179.95, state: 'AK' },
  aleutiansWest: { lat: 52.0, lng: 179.9, state: 'AK' },
  honolulu: { lat: 21.3069, lng: -157.8583, state: 'HI' },
  sanJuan: { lat: 18.4655, lng: -66.1057, state: 'PR' },
  guam: { lat: 13.4443, lng: 144.7937, state: 'GU' },
  // The centre of an H3 pentagon (res 6) in the Atlantic: rings there have five sides.
  pentagon: { lat: 23.717925271222974, lng: -67.13232636643566, state: 'PR' },
} as const;

export type Place = (typeof PLACES)[keyof typeof PLACES];

/** Deterministic PRNG (mulberry32), so fixtures are the same on every run. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The point `miles` from (lat, lng) along `bearingDeg`, by the spherical direct formula (not by the
 * haversine under test). Longitude is wrapped to [-180, 180).
 */
export function destination(lat: number, lng: number, bearingDeg: number, miles: number, earthRadiusMiles: number): { lat: number; lng: number } {
  const d = miles / earthRadiusMiles;
  const th = (bearingDeg * Math.PI) / 180;
  const p1 = (lat * Math.PI) / 180;
  const l1 = (lng * Math.PI) / 180;
  const p2 = Math.asin(Math.sin(p1) * Math.cos(d) + Math.cos(p1) * Math.sin(d) * Math.cos(th));
  const l2 = l1 + Math.atan2(Math.sin(th) * Math.sin(d) * Math.cos(p1), Math.cos(d) - Math.sin(p1) * Math.sin(p2));
  const lngDeg = ((((l2 * 180) / Math.PI + 180) % 360) + 360) % 360 - 180;
  return { lat: (p2 * 180) / Math.PI, lng: lngDeg };
}

let serial = 0;

/**
 * A facility at (lat, lng) with an awkward ID: mostly 12 digits, some with leading zeros or of
 * other lengths, a few not numeric at all; few distinct scores, so ties are common.
 */
export function placed(rand: () => number, at: { lat: number; lng: number }, state: string): FacilityRow {
  const n = serial++;
  const kind = rand();
  const registry_id =
    kind < 0.8 ? String(990000000000 + n) : kind < 0.9 ? String(n).padStart(12, '0') : kind < 0.97 ? String(7_000 + n) : `99-X${n}`;
  return facility({
    registry_id,
    fac_name: `FIXTURE ${registry_id} (FICTITIOUS)`,
    lat: at.lat,
    lng: at.lng,
    fac_state: rand() < 0.85 ? state : 'NV',
    overall_score: [15, 40, 40, 70, 100, 100, 100][Math.floor(rand() * 7)]!,
    active_enforcement: rand() < 0.2,
  });
}

/** `count` facilities scattered within `spreadMiles` of a place, some stacked on the same spot. */
export function cluster(rand: () => number, place: Place, count: number, spreadMiles: number, earthRadiusMiles: number): FacilityRow[] {
  const rows: FacilityRow[] = [];
  for (let i = 0; i < count; i++) {
    const prev = rows[rows.length - 1];
    const at = prev && rand() < 0.05 ? { lat: prev.lat!, lng: prev.lng! } : destination(place.lat, place.lng, rand() * 360, spreadMiles * Math.sqrt(rand()), earthRadiusMiles);
    rows.push(placed(rand, at, place.state));
  }
  return rows;
}
