import { registryIdAt, type SpatialIndex } from '../area/spatial-index';
import { searchRadius } from '../area/spatial-search';

/**
 * Registry ID of the facility nearest to a point within `maxMiles` (great-circle, inclusive), or
 * null; ties go to the lower registry ID. Uses the area feature's exact in-memory spatial index
 * (src/area: made by serve, shared with GET /area; 503 while it is still loading), so the external-geocoder path costs
 * microseconds instead of a scan of the facility table (the index file has no lat/lng index).
 */
export function nearestFacilityId(s: SpatialIndex, lat: number, lng: number, maxMiles: number): string | null {
  const [hit] = searchRadius(s, { lat, lng, radiusMiles: maxMiles, limit: 1, sort: 'distance', state: null, activeEnforcement: null });
  return hit ? registryIdAt(s, hit.pos) : null;
}
