import { t, type Static } from '../shared/typebox';

/** Where a geocoded point came from: the index's own addresses (exactly, or through the search fallback), or an external Census-format service. */
export const GeocodeSource = t.Union([t.Literal('offline'), t.Literal('search'), t.Literal('census')]);

/** One geocoder answer (`geocode(address) -> {lat, lng, matched, source} | null`). */
export const GeocodeResult = t.Object({
  lat: t.Number(),
  lng: t.Number(),
  /** The address as the geocoder matched it (normalised), for logs; never sent to the demo client. */
  matched: t.String(),
  source: GeocodeSource,
  /** Set by the offline geocoder: the facility whose own address matched, so no spatial step is needed. */
  registry_id: t.Optional(t.String()),
});
export type GeocodeResult = Static<typeof GeocodeResult>;

/** Anything that turns a one-line US address into a point, or `null`. May throw (timeout, HTTP error): geocoderChain turns that into no answer. */
export type Geocoder = {
  readonly name: string;
  geocode(address: string): Promise<GeocodeResult | null>;
};

/** Tries each geocoder in turn; the first point wins. A geocoder that throws counts as no answer. */
export function geocoderChain(geocoders: readonly Geocoder[], onError: (name: string, e: unknown) => void = () => {}): Geocoder {
  return {
    name: geocoders.map((g) => g.name).join('>'),
    async geocode(address) {
      for (const g of geocoders) {
        try {
          const r = await g.geocode(address);
          if (r) return r;
        } catch (e) {
          onError(g.name, e);
        }
      }
      return null;
    },
  };
}
