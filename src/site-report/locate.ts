import { zip5 } from '../address/address';
import { parseAddressQuery } from '../demo/address-query';
import { geocoderChain, type Geocoder } from '../demo/geocoder';
import { offlineGeocoder } from '../demo/offline-geocoder';
import { searchFallbackGeocoder } from '../demo/search-fallback';
import { AppError } from '../errors';
import type { FacilityIndex } from '../index/facility-index';
import { US_STATE_CODES } from '../shared/us-states';
import type { FacilitySearch } from '../search/facility-search';
import type { Site } from './model';
import { polygonsOf, type SiteRequest } from './request';
import { zipRecord, zipsOfCity, type ZipRecord } from '../address/zip-table';
import { parcelOf } from './boundary';

/** Where a report is drawn from, and how that point was found: the answer's `site`, less what the caller named. */
export type LocatedSite = Omit<Site, 'name' | 'address' | 'boundary'>;

/** The site is taken to 5 decimals (about 1 m): the same site always gives the same report (and cache key). */
export function roundCoordinate(v: number): number {
  const r = Math.round(v * 1e5) / 1e5;
  return Object.is(r, -0) ? 0 : r;
}

/** The index's own addresses, exactly and then through the search index: the demo's offline chain, never an external service. */
export function offlineLocator(index: FacilityIndex, search: FacilitySearch | null): Geocoder {
  return geocoderChain([offlineGeocoder(index), ...(search ? [searchFallbackGeocoder(index, search)] : [])]);
}

/** Centre of a 5-digit ZIP from the bundled ZIP table (src/address/zip-table.ts), or null. */
export function zipCentroid(zip: string): { lat: number; lng: number } | null {
  const z = zipRecord(zip);
  return z ? { lat: z.lat, lng: z.lng } : null;
}

/**
 * Centre of a city from the same table: the mean of its ZIP centres ("Houston, TX": 190 ZIPs). A city
 * given without a state is taken in the state where it has the most ZIPs (Houston: TX), as a reader would.
 */
export function cityCentroid(city: string, state: string | null): { lat: number; lng: number; city: string; state: string } | null {
  const states = state ? [state] : [...US_STATE_CODES];
  const rows = states.map((st) => zipsOfCity(city, st)).reduce((a, b) => (b.length > a.length ? b : a), [] as readonly ZipRecord[]);
  if (rows.length === 0) return null;
  const mean = (f: (z: ZipRecord) => number) => rows.reduce((sum, z) => sum + f(z), 0) / rows.length;
  return { lat: mean((z) => z.lat), lng: mean((z) => z.lng), city: rows[0]!.city, state: rows[0]!.state };
}

/** A place typed into the area view, located: where, how, and the words that say what was found. */
export type Place = { lat: number; lng: number; located_by: 'zip' | 'city' | 'address'; label: string };

/**
 * Locates a place offline: a ZIP (its centre), "City, ST" or a city alone (the centre of its
 * ZIPs), else a street address matched to the facility the index files there (its coordinates),
 * else the ZIP the address ends with. Null when none of these finds it.
 */
export async function locatePlace(place: string, locator: Geocoder): Promise<Place | null> {
  const text = place.trim().replace(/\s+/g, ' ');
  const zip = /^(\d{5})(?:-\d{4})?$/.exec(text)?.[1];
  if (zip) {
    const c = zipCentroid(zip);
    return c && { ...round(c), located_by: 'zip', label: `ZIP ${zip} (its centre)` };
  }
  const cityState = /^([A-Za-z][A-Za-z .'-]*?)(?:,\s*|\s+)([A-Za-z]{2})$/.exec(text);
  const st = cityState?.[2]!.toUpperCase();
  const city = cityState && US_STATE_CODES.has(st!) ? cityCentroid(cityState[1]!, st!) : /^[A-Za-z][A-Za-z .'-]*$/.test(text) ? cityCentroid(text, null) : null;
  if (city) return { ...round(city), located_by: 'city', label: `${city.city}, ${city.state} (the centre of its ZIP codes)` };
  const hit = await locator.geocode(text);
  if (hit) return { ...round(hit), located_by: 'address', label: `${hit.matched} (a facility filed at that address)` };
  const tail = trailingZip(text);
  const c = tail ? zipCentroid(tail) : null;
  return c && { ...round(c), located_by: 'zip', label: `ZIP ${tail} (its centre; the street matched no facility)` };
}

const round = (p: { lat: number; lng: number }) => ({ lat: roundCoordinate(p.lat), lng: roundCoordinate(p.lng) });

/** A ZIP at the end of a one-line address ("..., TX 77002" or "77002-1234"), or ''. */
function trailingZip(address: string): string {
  return /(?:^|\s)(\d{5})(?:-\d{4})?\s*$/.exec(address)?.[1] ?? '';
}

/**
 * Locates the site: coordinates as given; else the address, matched offline to the facility the
 * index files there (its coordinates); else the centre of the property's ZIP (the request's `zip`,
 * or the one in the address), which is approximate and says so; else 404 NOT_FOUND naming `address`.
 */
export async function locateSite(req: SiteRequest, index: FacilityIndex, locator: Geocoder): Promise<LocatedSite> {
  if (req.boundary && !req.point && !req.address) {
    const c = parcelOf(polygonsOf(req.boundary)).centre;
    return { lat: roundCoordinate(c.lat), lng: roundCoordinate(c.lng), located_by: 'boundary', approximate: false, zip: req.zip, matched_registry_id: null, note: 'Located by the boundary given: distances are from the boundary, directions from its centre.' };
  }
  if (req.point) {
    return { lat: roundCoordinate(req.point.lat), lng: roundCoordinate(req.point.lng), located_by: 'coordinates', approximate: false, zip: req.zip, matched_registry_id: null, note: 'Located by the coordinates given.' };
  }
  const address = req.address!;
  const hit = await locator.geocode(address);
  const row = hit?.registry_id ? index.getSummary(hit.registry_id) : null;
  const typedZip = parseAddressQuery(address)?.zip || trailingZip(address);
  if (hit && row) {
    return {
      lat: roundCoordinate(hit.lat),
      lng: roundCoordinate(hit.lng),
      located_by: 'address',
      approximate: false,
      zip: req.zip ?? (typedZip || zip5(row.fac_zip) || null),
      matched_registry_id: row.registry_id,
      note: `Located at the address: the coordinates of ${row.fac_name || 'the facility'} (registry ID ${row.registry_id}), which the index files at ${row.fac_street}, ${row.fac_city}, ${row.fac_state} ${row.fac_zip}.`,
    };
  }
  const zip = req.zip ?? (typedZip || null);
  const centre = zip ? zipCentroid(zip) : null;
  if (zip && centre) {
    return {
      lat: roundCoordinate(centre.lat),
      lng: roundCoordinate(centre.lng),
      located_by: 'zip_centroid',
      approximate: true,
      zip,
      matched_registry_id: null,
      note: `APPROXIMATE: the address matched no facility in the index, so the site is placed at the centre of ZIP ${zip}. Distances and directions are from that point, which can be a mile or more from the property; give lat and lng for an exact report.`,
    };
  }
  throw new AppError(
    'NOT_FOUND',
    zip
      ? `address could not be located: it matches no facility in the index and ZIP ${zip} is not in the ZIP table; give lat and lng`
      : 'address could not be located: it matches no facility in the index and has no ZIP code to place it by; add the ZIP, or give lat and lng',
  );
}
