import { t, type Static } from '../shared/typebox';
import { Envelope } from '../shared/envelope';
import { DataSufficient } from '../scoring/completeness';
import { DEFAULT_LIMIT, MAX_LIMIT, MAX_RADIUS_MILES } from './query';

/**
 * The area search's query parameters, for OpenAPI. `parseAreaQuery` (the input step of the route's API-key pipeline)
 * reads them strictly, with messages that name the parameter, before Elysia would; so the schema
 * is `noValidate` and nothing is checked twice.
 */
export const AreaQuery = t.Object({
  lat: t.Number({ minimum: -90, maximum: 90, description: 'Latitude of the centre, WGS84 decimal degrees', examples: [29.7604] }),
  lng: t.Number({ minimum: -180, maximum: 180, description: 'Longitude of the centre, WGS84 decimal degrees', examples: [-95.3698] }),
  radius_miles: t.Number({ exclusiveMinimum: 0, maximum: MAX_RADIUS_MILES, description: 'Great-circle radius in statute miles, > 0 and ≤ 25', examples: [10] }),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT, description: 'Most facilities to return' })),
  sort: t.Optional(
    t.Union([t.Literal('distance'), t.Literal('score')], {
      default: 'distance',
      description: '`distance`: nearest first. `score`: worst compliance (lowest overall_score) first, then nearest. Remaining ties: registry_id ascending.',
    }),
  ),
  state: t.Optional(t.String({ pattern: '^[A-Za-z]{2}$', description: 'Only facilities in this US state or territory (USPS code, any case)', examples: ['TX'] })),
  active_enforcement: t.Optional(t.Boolean({ description: 'true: only facilities with an enforcement action in the last 12 months or a significant violation being addressed (docs/scoring.md); false: only those without' })),
  format: t.Optional(t.Union([t.Literal('json'), t.Literal('csv'), t.Literal('geojson')], { description: 'Response form; overrides Accept' })),
}, { noValidate: true });

/** An area item (docs/area-and-portfolio.md). */
export const AreaFacility = t.Object({
  registry_id: t.String({ examples: ['990004433640'] }),
  fac_name: t.String({ examples: ['PLUQUANT TRAVEL CENTER CO'] }),
  overall_score: t.Integer({ minimum: 0, maximum: 100 }),
  active_enforcement: t.Boolean(),
  distance_miles: t.Number({ minimum: 0, description: 'Great-circle distance from the centre in miles, rounded to 3 decimals (about 5 feet)', examples: [1.234] }),
  data_sufficient: DataSufficient,
});
export type AreaFacility = Static<typeof AreaFacility>;

export const AreaResult = t.Object({
  center: t.Object({ lat: t.Number(), lng: t.Number() }, { description: 'The query point' }),
  radius_miles: t.Number({ description: 'Echo of the query radius' }),
  facilities: t.Array(AreaFacility),
  total: t.Integer({ minimum: 0, description: 'Count of facilities returned (at most `limit`)' }),
});
export type AreaResult = Static<typeof AreaResult>;

export const AreaResponse = Envelope(AreaResult);

/** `GET /api/v1/area/place`'s query: what the area view centres on. */
export const PlaceQuery = t.Object(
  {
    q: t.String({ minLength: 1, maxLength: 200, description: 'A ZIP, "City, ST" (or a city alone), or a street address with city and state', examples: ['Houston, TX'] }),
  },
  { noValidate: true },
);

export const PlaceResult = t.Object({
  lat: t.Number({ minimum: -90, maximum: 90 }),
  lng: t.Number({ minimum: -180, maximum: 180 }),
  located_by: t.Union([t.Literal('zip'), t.Literal('city'), t.Literal('address')], { description: '`zip`: the ZIP\'s centre; `city`: the mean of its ZIP centres; `address`: a facility the index files at that address' }),
  label: t.String({ description: 'What was found, in words', examples: ['Houston, TX (the centre of its ZIP codes)'] }),
});
export const PlaceResponse = Envelope(PlaceResult);
