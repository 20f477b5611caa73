import type { Geocoder, GeocodeResult } from './geocoder';

/**
 * Client for a geocoder speaking the US Census Bureau's one-line-address API:
 *   GET <base>/geocoder/locations/onelineaddress?address=...&benchmark=Public_AR_Current&format=json
 * Reply shape (Census "Geocoding Services API" documentation, geocoding.geo.census.gov/geocoder/
 * Geocoding_Services_API.html, and live replies recorded in public test fixtures; the one we replay in
 * test/demo/fixtures/census-onelineaddress.json is the Bureau's own HQ address):
 *   {"result":{"input":{...},"addressMatches":[{"tigerLine":{...},"coordinates":{"x":<lng>,"y":<lat>},
 *     "addressComponents":{...},"matchedAddress":"4600 SILVER HILL RD, WASHINGTON, DC, 20233"}]}}
 * x is LONGITUDE and y LATITUDE. No match is HTTP 200 with `addressMatches: []`; a bad request is
 * a 4xx with `{"errors":[...],"status":"400"}`.
 */
export type CensusOptions = {
  /** Service base ("https://geocoding.geo.census.gov") or the full .../onelineaddress endpoint. */
  url: string;
  benchmark: string;
  timeoutMs: number;
  fetch?: typeof fetch;
};

export function censusEndpoint(url: string): string {
  const base = url.replace(/\/+$/, '');
  return base.endsWith('/onelineaddress') ? base : `${base}/geocoder/locations/onelineaddress`;
}

/** Reads the first match of a Census reply; null for no match or any other shape. */
export function readCensusReply(body: unknown): Omit<GeocodeResult, 'source'> | null {
  const match = (body as { result?: { addressMatches?: unknown } } | null)?.result?.addressMatches;
  if (!Array.isArray(match) || match.length === 0) return null;
  const first = match[0] as { coordinates?: { x?: unknown; y?: unknown }; matchedAddress?: unknown };
  const lng = first.coordinates?.x;
  const lat = first.coordinates?.y;
  if (typeof lat !== 'number' || typeof lng !== 'number' || Math.abs(lat) > 90 || Math.abs(lng) > 180) return null;
  return { lat, lng, matched: typeof first.matchedAddress === 'string' ? first.matchedAddress : '' };
}

/** A Census-format geocoder. Throws on timeout, network error or a non-2xx reply (the chain logs it and moves on). */
export function censusGeocoder(o: CensusOptions): Geocoder {
  const endpoint = censusEndpoint(o.url);
  const doFetch = o.fetch ?? fetch;
  return {
    name: 'census',
    async geocode(address) {
      const url = `${endpoint}?${new URLSearchParams({ address, benchmark: o.benchmark, format: 'json' })}`;
      const res = await doFetch(url, { signal: AbortSignal.timeout(o.timeoutMs), headers: { accept: 'application/json' } });
      if (!res.ok) throw new Error(`census geocoder answered HTTP ${res.status}`);
      const hit = readCensusReply(await res.json());
      return hit && { ...hit, source: 'census' };
    },
  };
}
