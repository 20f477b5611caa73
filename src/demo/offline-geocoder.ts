import type { FacilityIndex } from '../index/facility-index';
import type { FacilitySummary } from '../index/model';
import { addressKey, normalizeAddressKey, normalizeCity, normalizeStreet, zip5 } from '../address/address';
import { parseAddressQuery, type AddressQuery, type StreetCandidate } from './address-query';
import type { Geocoder } from './geocoder';

/**
 * Decides whether an index row with the same street key and state is at the queried address.
 * - A ZIP in the query decides: the row's ZIP5 must equal it. The city is then not compared, since
 *   one ZIP often spans places with several names (a facility filed under "VERNON" has a
 *   "LOS ANGELES" mailing address).
 * - Without a ZIP (in the query or the row), the city must be given and equal (Saint/St, Fort/Ft, punctuation aside).
 * - With neither, there is no telling one "100 Main St" of a state from another: no match.
 */
export function sameLocality(q: AddressQuery, c: StreetCandidate, row: FacilitySummary): boolean {
  const rowZip = zip5(row.fac_zip);
  if (q.zip && rowZip) return rowZip === q.zip;
  return c.city !== '' && normalizeCity(row.fac_city) === c.city;
}

/** Of the rows at the address, the one in the queried unit if any names it, else the first (lowest registry ID). */
function pickUnit(c: StreetCandidate, rows: FacilitySummary[]): FacilitySummary | undefined {
  if (c.unit) {
    const inUnit = rows.find((r) => normalizeStreet(r.fac_street).unit === c.unit);
    if (inUnit) return inUnit;
  }
  return rows[0];
}

/** Finds the facility whose own index address is the queried one, or null. */
export function findFacilityAtAddress(index: FacilityIndex, q: AddressQuery): FacilitySummary | null {
  if (!q.state) return null;
  for (const c of q.candidates) {
    const rows = index.findByAddressKey(addressKey(c.street, q.state)).filter((r) => sameLocality(q, c, r));
    const row = pickUnit(c, rows);
    if (row) return row;
  }
  return null;
}

/** The default geocoder: works with nothing but the index, so the demo runs air-gapped. */
export function offlineGeocoder(index: FacilityIndex): Geocoder {
  return {
    name: 'offline',
    async geocode(address) {
      const q = parseAddressQuery(address);
      const row = q && findFacilityAtAddress(index, q);
      // a facility without coordinates gives no point to place the address at
      if (!row || row.lat === null || row.lng === null) return null;
      return {
        lat: row.lat,
        lng: row.lng,
        matched: `${normalizeAddressKey(row.fac_street, row.fac_state)} ${zip5(row.fac_zip)}`,
        source: 'offline',
        registry_id: row.registry_id,
      };
    },
  };
}
