import { t, type Static } from '../shared/typebox';
import { DatasetMeta, Envelope } from '../shared/envelope';
import { CATEGORY_KEYS, DISTANCE_KEYS, MAX_SEARCH_MILES } from './categories';
import { MAX_BOUNDARY_VERTICES } from './boundary';
import { COMPASS_POINTS, DISTANCE_BANDS } from './compass';
import { FindingDetail, LocationQuality } from './finding-detail';
import { DataSufficient } from '../scoring/completeness';

const Miles = (description: string) => t.Number({ exclusiveMinimum: 0, maximum: MAX_SEARCH_MILES, description });
const CategoryKey = t.UnionEnum([...CATEGORY_KEYS], { description: 'A record category (docs/site-report.md)' });

/** `search_distances` in a request: any subset of the categories, miles each. */
export const SearchDistancesIn = t.Object(
  Object.fromEntries(DISTANCE_KEYS.map((k) => [k, t.Optional(Miles(`Search distance for \`${k}\`, 0 < miles ≤ ${MAX_SEARCH_MILES}`))])) as Record<(typeof DISTANCE_KEYS)[number], ReturnType<typeof Miles>>,
  { additionalProperties: false, description: 'Overrides of the default search distances (docs/site-report.md); categories left out keep theirs' },
);

const Position = t.Array(t.Number(), { minItems: 2, maxItems: 2, description: '[longitude, latitude], WGS84' });
const Ring = t.Array(Position, { minItems: 4, description: 'A closed ring: the first position repeated last' });
/** A parcel, GeoJSON (RFC 7946), read strictly by ./request.ts checkBoundary. */
export const Boundary = t.Union([
  t.Object({ type: t.Literal('Polygon'), coordinates: t.Array(Ring, { minItems: 1 }) }),
  t.Object({ type: t.Literal('MultiPolygon'), coordinates: t.Array(t.Array(Ring, { minItems: 1 }), { minItems: 1 }) }),
], { description: `The property's boundary: a GeoJSON Polygon or MultiPolygon, WGS84, at most ${MAX_BOUNDARY_VERTICES} vertices. Distances are then measured from it (inside: 0), directions from its centre` });

/** The request body, for OpenAPI: ./request.ts reads it strictly, naming the field of every problem. */
export const SiteReportBody = t.Object(
  {
    lat: t.Optional(t.Number({ minimum: -90, maximum: 90, description: 'Latitude of the property, WGS84; with `lng`', examples: [29.7381] })),
    lng: t.Optional(t.Number({ minimum: -180, maximum: 180, description: 'Longitude of the property, WGS84; with `lat`', examples: [-95.3683] })),
    address: t.Optional(t.String({ minLength: 1, maxLength: 200, description: 'US street address of the property, located offline against the index; with lat/lng it is only printed', examples: ['9794 Main Ave, Houston, TX 77297'] })),
    zip: t.Optional(t.String({ pattern: '^[0-9]{5}(-[0-9]{4})?$', description: 'ZIP of the property: where facilities without coordinates are looked for', examples: ['77297'] })),
    name: t.Optional(t.String({ maxLength: 200, description: 'Name of the property, printed on the report', examples: ['Main Avenue lot'] })),
    search_distances: t.Optional(SearchDistancesIn),
    boundary: t.Optional(Boundary),
  },
  {
    additionalProperties: false,
    description: 'Give `lat` and `lng`, or `address`',
    examples: [
      { address: '9794 Main Ave, Houston, TX 77297', name: 'Main Avenue lot' },
      { lat: 29.73811, lng: -95.36831, zip: '77297', search_distances: { snc: 2, adjoining: 0.5 } },
    ],
  },
);

/** The response form, for OpenAPI (read with `Accept` by ./routes.ts; the parameter wins). */
export const SiteReportQuery = t.Object(
  { format: t.Optional(t.UnionEnum(['json', 'csv', 'geojson', 'pdf'], { description: 'Response form; overrides Accept. csv/geojson: the findings; pdf: the report document' })) },
  { noValidate: true },
);

export const LocatedBy = t.UnionEnum(['coordinates', 'address', 'zip_centroid', 'boundary'], {
  description: '`boundary`: the centre of the parcel given. `coordinates`: as given. `address`: the coordinates of the facility the index files at that address. `zip_centroid`: the centre of the ZIP (approximate).',
});

export const Site = t.Object({
  lat: t.Number({ description: 'Latitude searched from, rounded to 5 decimals (about 1 m)' }),
  lng: t.Number({ description: 'Longitude searched from, rounded to 5 decimals' }),
  located_by: LocatedBy,
  approximate: t.Boolean({ description: 'True when located by ZIP centroid: distances are from the ZIP\'s centre, not the property' }),
  name: t.Union([t.String(), t.Null()]),
  address: t.Union([t.String(), t.Null()], { description: 'The address as given, or null' }),
  zip: t.Union([t.String(), t.Null()], { description: 'ZIP5 of the property: given, from the address, or the ZIP whose centre is nearest the site (the note says which); null when none is known' }),
  matched_registry_id: t.Union([t.String(), t.Null()], { description: 'located_by address: the facility whose index address matched' }),
  note: t.String({ description: 'How the site was located, in one sentence' }),
  boundary: t.Union([Boundary, t.Null()], { description: 'The parcel given, or null (a point site)' }),
});
export type Site = Static<typeof Site>;

const Facility = {
  registry_id: t.String({ examples: ['990001127439'] }),
  fac_name: t.String(),
  fac_street: t.String(),
  fac_city: t.String(),
  fac_state: t.String(),
  fac_zip: t.String(),
  overall_score: t.Integer({ minimum: 0, maximum: 100 }),
  significant_violation: t.Boolean({ description: 'In significant non-compliance (SNC / HPV) now' }),
  active_enforcement: t.Boolean(),
  programs: t.Array(t.String(), { description: 'ECHO programs the facility is in: CAA, CWA, RCRA, SDWA' }),
};

export const Finding = t.Object({
  registry_id: Facility.registry_id,
  fac_name: Facility.fac_name,
  fac_street: Facility.fac_street,
  fac_city: Facility.fac_city,
  fac_state: Facility.fac_state,
  fac_zip: Facility.fac_zip,
  distance_miles: t.Number({ minimum: 0, description: 'Great-circle (haversine) distance from the site (a parcel: from its boundary, 0 inside), 3 decimals' }),
  bearing_degrees: t.Number({ minimum: 0, maximum: 360, description: 'Initial bearing from the site, degrees from true north, 1 decimal' }),
  direction: t.UnionEnum([...COMPASS_POINTS, 'on site'], { description: '16-point compass direction from the site (a parcel: from its centre); `on site` inside the parcel, or under 0.02 mi of a point site' }),
  categories: t.Array(CategoryKey, { description: 'Every category the facility is listed under (it is within that category\'s distance)' }),
  overall_score: Facility.overall_score,
  significant_violation: Facility.significant_violation,
  active_enforcement: Facility.active_enforcement,
  programs: Facility.programs,
  ...FindingDetail,
  ...LocationQuality,
  location: t.Object({ lat: t.Number(), lng: t.Number() }, { description: 'FAC_LAT, FAC_LONG: where the facility is, WGS84 (a parcel\'s map places it there)' }),
  data_sufficient: DataSufficient,
});
export type Finding = Static<typeof Finding>;

export const UnmappedFacility = t.Object({
  ...Facility,
  categories: t.Array(CategoryKey, { description: 'The categories whose record type it has, adjoining aside (its distance is unknown)' }),
  zip: t.Union([t.String(), t.Null()], { description: 'ZIP5 of the facility\'s address' }),
  reason: t.String({ description: '`no coordinates`, or `approximate location (±N m)` (a centroid method or an accuracy coarser than the setting): why it is not placed' }),
  ...LocationQuality,
  data_sufficient: DataSufficient,
});
export type UnmappedFacility = Static<typeof UnmappedFacility>;

export const Unmapped = t.Object({
  zip: t.Union([t.String(), t.Null()]),
  zips: t.Array(t.String(), { description: 'The ZIPs looked in: the site\'s and every ZIP whose centre is within the largest search distance plus 2 miles' }),
  searched: t.Boolean({ description: 'False when there was no ZIP to look in, or the index cannot find facilities without coordinates by ZIP' }),
  note: t.String(),
  facilities: t.Array(UnmappedFacility),
});

export const Coverage = t.UnionEnum(['searched', 'broadened', 'not_searched'], {
  description: '`searched`: exactly. `broadened`: the index lacks the deciding field, so the wider ECHO program is listed. `not_searched`: nothing stored can tell.',
});

export const BandCounts = t.Object(Object.fromEntries(DISTANCE_BANDS.map((b) => [b.key, t.Integer({ minimum: 0, description: b.label })])) as Record<(typeof DISTANCE_BANDS)[number]['key'], ReturnType<typeof t.Integer>>);

export const SummaryRow = t.Object({
  category: CategoryKey,
  label: t.String(),
  search_distance_miles: t.Number({ minimum: 0, description: 'How far from the site (a parcel: from its boundary) the category is searched; on_site of a parcel: 0, inside the boundary' }),
  coverage: Coverage,
  note: t.String({ description: 'What the category lists on this index, and from which ECHO columns' }),
  counts: BandCounts,
  total: t.Integer({ minimum: 0 }),
});
export type SummaryRow = Static<typeof SummaryRow>;

export const Sources = t.Object({
  searched: t.Array(t.Object({ name: t.String(), as_of: t.Union([t.String(), t.Null()]), note: t.String() })),
  not_searched: t.Array(t.Object({ name: t.String(), astm_search_distance: t.String(), why: t.String() })),
});

export const WARNING_CODES = ['DATA_OLDER_THAN_90_DAYS', 'APPROXIMATE_SITE', 'APPROXIMATE_FACILITY_LOCATIONS', 'UNMAPPED_NOT_SEARCHED', 'FICTITIOUS_DATA'] as const;
export const Warning = t.Object({ code: t.UnionEnum([...WARNING_CODES]), message: t.String() });
export type Warning = Static<typeof Warning>;

export const SiteReport = t.Object({
  site: Site,
  search_distances: t.Object(Object.fromEntries(CATEGORY_KEYS.map((k) => [k, t.Number()])) as Record<(typeof CATEGORY_KEYS)[number], ReturnType<typeof t.Number>>, { description: 'The distances searched, miles' }),
  findings: t.Array(Finding, { description: 'One item per facility found, nearest first (then registry ID)' }),
  unmapped: Unmapped,
  summary: t.Array(SummaryRow),
  sources: Sources,
  dataset: DatasetMeta,
  warnings: t.Array(Warning, { description: 'What a reader must know before relying on the report (docs/site-report.md, "Warnings")' }),
});
export type SiteReport = Static<typeof SiteReport>;

export const SiteReportResponse = Envelope(SiteReport);
