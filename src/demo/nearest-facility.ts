import type { Database } from 'bun:sqlite';
import type { FacilityIndex } from '../index/facility-index';

const EARTH_RADIUS_MILES = 3958.7613;
const MILES_PER_DEGREE_LAT = 69.0;

/** Great-circle distance in miles (haversine). */
export function milesBetween(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLng = (lng2 - lng1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(a)));
}

type Candidate = { registry_id: string; lat: number; lng: number };
const statements = new WeakMap<Database, ReturnType<Database['prepare']>>();

/**
 * Registry ID of the facility nearest to a point within `maxMiles`, or null. A lat/lng box on the
 * facility table picks candidates (uses an index on lat when the index file has one; a full scan
 * otherwise, which the external-geocoder path can afford: docs/demo.md), then the exact distance
 * decides. Ties go to the lower registry ID.
 */
export function nearestFacilityId(index: FacilityIndex, lat: number, lng: number, maxMiles: number): string | null {
  let q = statements.get(index.db);
  if (!q) {
    q = index.db.prepare('SELECT registry_id, lat, lng FROM facility WHERE lat BETWEEN ? AND ? AND lng BETWEEN ? AND ?');
    statements.set(index.db, q);
  }
  const dLat = maxMiles / MILES_PER_DEGREE_LAT;
  const dLng = maxMiles / (MILES_PER_DEGREE_LAT * Math.max(0.01, Math.cos((lat * Math.PI) / 180)));
  let best: { id: string; miles: number } | null = null;
  for (const c of q.all(lat - dLat, lat + dLat, lng - dLng, lng + dLng) as Candidate[]) {
    const miles = milesBetween(lat, lng, c.lat, c.lng);
    if (miles > maxMiles) continue;
    if (!best || miles < best.miles || (miles === best.miles && c.registry_id < best.id)) best = { id: c.registry_id, miles };
  }
  return best?.id ?? null;
}
