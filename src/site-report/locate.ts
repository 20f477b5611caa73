import { zip5 } from '../address/address';
import { parseAddressQuery } from '../demo/address-query';
import { geocoderChain, type Geocoder } from '../demo/geocoder';
import { offlineGeocoder } from '../demo/offline-geocoder';
import { searchFallbackGeocoder } from '../demo/search-fallback';
import { AppError } from '../errors';
import type { FacilityIndex } from '../index/facility-index';
import type { FacilitySearch } from '../search/facility-search';
import type { Site } from './model';
import type { SiteRequest } from './request';

/** Where a report is drawn from, and how that point was found: the answer's `site`, less what the caller named. */
export type LocatedSite = Omit<Site, 'name' | 'address'>;

/** The site is taken to 5 decimals (about 1 m): the same site always gives the same report (and cache key). */
export function roundCoordinate(v: number): number {
  const r = Math.round(v * 1e5) / 1e5;
  return Object.is(r, -0) ? 0 : r;
}

/** The index's own addresses, exactly and then through the search index: the demo's offline chain, never an external service. */
export function offlineLocator(index: FacilityIndex, search: FacilitySearch | null): Geocoder {
  return geocoderChain([offlineGeocoder(index), ...(search ? [searchFallbackGeocoder(index, search)] : [])]);
}

type ZipTable = { lookup(zip: string): { latitude: number; longitude: number } | undefined };
let zipTable: ZipTable | undefined;

/**
 * Centre of a 5-digit ZIP from the bundled `zipcodes` table (federalgovernmentzipcodes.us), or null.
 * Loaded on the first ZIP-only match (a large object literal, slow to load), as the demo loads it.
 */
export function zipCentroid(zip: string): { lat: number; lng: number } | null {
  zipTable ??= require('zipcodes') as ZipTable;
  const z = zipTable.lookup(zip);
  return z && Number.isFinite(z.latitude) && Number.isFinite(z.longitude) ? { lat: z.latitude, lng: z.longitude } : null;
}

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
