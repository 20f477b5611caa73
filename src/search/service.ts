import type { Location } from '../exports/geojson';
import { encodeCursor } from './cursor';
import { locationOf } from '../index/facility-index';
import type { FacilitySearch } from './facility-search';
import type { SearchResult } from './model';
import type { SearchRequest } from './query';

/** One page of a search, and the facilities' locations for the export forms. */
export function searchFacilities(search: FacilitySearch, r: SearchRequest): { result: SearchResult; locations: Map<string, Location> } {
  const { hits, more } = search.page(r);
  const locations = new Map<string, Location>();
  const facilities = hits.map((h) => {
    locations.set(h.registry_id, locationOf(h));
    return {
      registry_id: h.registry_id,
      fac_name: h.fac_name,
      overall_score: h.overall_score,
      active_enforcement: h.active_enforcement,
      fac_street: h.fac_street,
      fac_city: h.fac_city,
      fac_state: h.fac_state,
      fac_zip: h.fac_zip,
      data_sufficient: h.data_sufficient,
    };
  });
  const last = hits.at(-1);
  const next_cursor = more && last ? encodeCursor(last.key, r, search.fingerprint) : null;
  const { total, capped } = search.count(r);
  return { result: { facilities, total, total_capped: capped, next_cursor }, locations };
}
