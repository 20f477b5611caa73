import { streetParts } from '../address/address';
import { NAME_WORDS, STREET_TYPES } from '../address/street-words';
import type { FacilityIndex } from '../index/facility-index';
import type { FacilitySummary } from '../index/model';
import type { FacilitySearch } from '../search/facility-search';
import { queryWords } from '../search/match';
import { parseAddressQuery, type AddressQuery, type StreetCandidate } from './address-query';
import type { Geocoder } from './geocoder';
import { sameLocality } from './offline-geocoder';

/** Most facilities the search may find for one reading; beyond, the address is too vague to name one. */
const MAX_CANDIDATES = 50;
// Street types and directionals, canonical: a street's name is what is left without them.
const TYPES = new Set(STREET_TYPES.values());
const DIRECTIONS = new Set([...NAME_WORDS.values()].filter((w) => /^[NSEW]{1,2}$/.test(w)));

/** The street's name words: canonical words less types and directionals ("100 N Main Street" -> MAIN). */
function nameWords(words: readonly string[]): string {
  const core = words.filter((w) => !TYPES.has(w) && !DIRECTIONS.has(w));
  return (core.length > 0 ? core : words).join(' ');
}

/**
 * Whether `row` is at the reading's address up to the street type and directionals: same house
 * number, same street name words, same locality (ZIP, else city: sameLocality). A street whose
 * name is only a type or a direction ("100 Center St") is compared with all its words.
 */
function sameAddressLoosely(q: AddressQuery, c: StreetCandidate, row: FacilitySummary): boolean {
  const typed = streetParts(c.typedStreet);
  const filed = streetParts(row.fac_street);
  return typed.house !== '' && typed.house === filed.house && nameWords(typed.words) === nameWords(filed.words) && sameLocality(q, c, row);
}

/**
 * The demo's second chance (docs/demo.md, "Search fallback"): for an address the exact match
 * missed, the search index finds facilities with the house number and the ZIP (or, without one,
 * the city's words) in the state; those at the same address up to street type and directionals
 * are kept; the answer is the one facility left, if exactly one is. Two or more is ambiguous and
 * answers nothing, like none.
 */
export function findFacilityBySearch(index: FacilityIndex, search: FacilitySearch, q: AddressQuery): FacilitySummary | null {
  if (!q.state) return null;
  for (const c of q.candidates) {
    const house = streetParts(c.typedStreet).house;
    const place = q.zip ? [q.zip] : queryWords(c.typedCity);
    if (!house || place.length === 0) continue;
    const { hits, more } = search.page({
      words: [house, ...place],
      state: q.state,
      naics: null,
      minScore: null,
      maxScore: null,
      activeEnforcement: null,
      sort: 'relevance',
      limit: MAX_CANDIDATES,
      after: null,
    });
    if (more) continue;
    const matches = hits.map((h) => index.getSummary(h.registry_id)!).filter((row) => sameAddressLoosely(q, c, row));
    if (matches.length === 1) return matches[0]!;
    if (matches.length > 1) return null;
  }
  return null;
}

/** The search fallback as a geocoder, chained after the exact offline one (src/api/demo.ts). */
export function searchFallbackGeocoder(index: FacilityIndex, search: FacilitySearch): Geocoder {
  return {
    name: 'search',
    async geocode(address) {
      const q = parseAddressQuery(address);
      const row = q && findFacilityBySearch(index, search, q);
      if (!row || row.lat === null || row.lng === null) return null;
      return { lat: row.lat, lng: row.lng, matched: `${row.fac_street}|${row.fac_state}`, source: 'search', registry_id: row.registry_id };
    },
  };
}
