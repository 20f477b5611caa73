import { spatialIndexFor } from '../area/spatial-registry';
import { registryIdAt } from '../area/spatial-index';
import { searchRadius } from '../area/spatial-search';
import type { FacilityIndex } from '../index/facility-index';

/**
 * Registry ID of the facility nearest to a point within `maxMiles` (great-circle, inclusive), or
 * null; ties go to the lower registry ID. Uses the area feature's exact in-memory spatial index
 * (src/area: built at serve start, shared with GET /area), so the external-geocoder path costs
 * microseconds instead of a scan of the facility table (the index file has no lat/lng index).
 */
export function nearestFacilityId(index: FacilityIndex, lat: number, lng: number, maxMiles: number): string | null {
  const s = spatialIndexFor(index);
  const [hit] = searchRadius(s, { lat, lng, radiusMiles: maxMiles, limit: 1, sort: 'distance', state: null, activeEnforcement: null });
  return hit ? registryIdAt(s, hit.pos) : null;
}
