import { Elysia } from 'elysia';
import type { AppDeps } from './deps';
import { apiKeyAuth, apiKeyErrors, inputCheck, type ApiKeyRoute } from './http/api-key-auth';
import { AppError } from '../errors';
import { locatePlace } from '../site-report/locate';
import type { Geocoder } from '../demo/geocoder';
import { exportableInput } from './http/exportable';
import { listResponses } from '../exports/response';
import { answerIn } from './http/answer-in';
import { bulkyJsonResponse } from './http/json-response';
import { datasetMeta } from '../shared/envelope';
import { metaFor } from './http/request-context';
import { AreaFacility, AreaQuery, AreaResponse, PlaceQuery, PlaceResponse } from '../area/model';
import { parseAreaQuery } from '../area/query';
import { countWithinRadius, findWithinRadius } from '../area/service';
import { SITE_BIT } from '../index/site-facts';
import { listTag, notModified, releaseTag } from './http/conditional';

/**
 * The query is read strictly (422 naming each bad parameter) by the pipeline's input step: after
 * authentication (401/403 first) and before the call is counted, so a rejected query is never billed.
 * The spatial index is taken in the handler: 503 with Retry-After while it is still being made after
 * a start (docs/area-and-portfolio.md); a 5xx gives the counted call back (error handler).
 */
const AREA_QUERY = exportableInput(['VALIDATION_ERROR'], ({ request }) => parseAreaQuery(new URL(request.url).searchParams));
const AREA: ApiKeyRoute = { endpoint: 'area', input: AREA_QUERY };
const ERRORS = apiKeyErrors(AREA);

/** The place to centre an area on: one `q` of 1-200 characters, else 422 naming it. */
const PLACE_QUERY = inputCheck(['VALIDATION_ERROR'], ({ request }) => {
  const all = new URL(request.url).searchParams.getAll('q');
  const q = all[0]?.trim() ?? '';
  if (all.length !== 1 || q === '' || q.length > 200) throw new AppError('VALIDATION_ERROR', 'q is required once: a ZIP, "City, ST" or a street address, at most 200 characters');
  return q;
});
/** Finding a centre is a step of an area search, not a search: never counted (as the page asks it before each typed place). */
const PLACE: ApiKeyRoute = { endpoint: 'area', input: PLACE_QUERY, counted: false };
const PLACE_ERRORS = apiKeyErrors(PLACE, 'NOT_FOUND');

export function areaRoutes(deps: AppDeps, locator: Geocoder) {
  const release = releaseTag(deps.index.info);
  const dataset = datasetMeta(deps.index.info);
  return new Elysia({ name: 'area-routes' })
    .use(apiKeyAuth(deps))
    .get(
      '/api/v1/area/place',
      async ({ input, facts }) => {
        const q = PLACE_QUERY.from(input) as string;
        const place = await locatePlace(q, locator);
        if (!place) throw new AppError('NOT_FOUND', `No ZIP, city or facility address matches "${q.slice(0, 80)}": try "City, ST", a 5-digit ZIP, or a street address with city and state`);
        return { data: place, meta: metaFor(facts, deps.clock) };
      },
      {
        apiKey: PLACE,
        query: PlaceQuery,
        response: { 200: PlaceResponse, ...PLACE_ERRORS },
        detail: {
          tags: ['Area'],
          summary: 'A point to centre an area search on, from a ZIP, a city or an address',
          description:
            'Starter plan or above; not counted. Offline: a 5-digit ZIP is its centre and "City, ST" (or a city alone, taken in the state ' +
            'where it has the most ZIPs) the mean of its ZIP centres, from the bundled ZIP table; a street address is the facility the index ' +
            'files there, else the centre of the ZIP it ends with. 404 NOT_FOUND when nothing matches.',
          security: [{ apiKey: [] }],
        },
      },
    )
    .get(
      '/api/v1/area',
      ({ input, facts, set, request, caller }) => {
        const { value: q, format } = AREA_QUERY.from(input);
        const spatial = deps.spatial.require();
        const unchanged = notModified(request, listTag(release, request, format, caller.tier), set, 'Accept, Origin, Accept-Encoding');
        if (unchanged) return unchanged;
        const data = findWithinRadius(spatial, q, SITE_BIT.insufficientData);
        // every form is a Response: a 500-facility answer is large, sent in one write (json-response.ts)
        return answerIn(format, set, {
          envelope: () => bulkyJsonResponse({ data, meta: metaFor(facts, deps.clock, dataset) }, set),
          list: () => {
            // A file has no `total` beside its rows: headers say how many matched and whether `limit` cut the list.
            const matched = data.total < q.limit ? data.total : countWithinRadius(spatial, q);
            return {
              name: `area-${q.lat}_${q.lng}-${q.radiusMiles}mi`,
              items: data.facilities,
              locations: deps.index.getLocations(data.facilities.map((f) => f.registry_id)),
              columns: Object.keys(AreaFacility.properties),
              dataset,
              headers: { 'x-total-count': String(matched), 'x-truncated': String(matched > data.total) },
            };
          },
        });
      },
      {
        apiKey: AREA,
        query: AreaQuery,
        response: { 200: AreaResponse, ...ERRORS },
        detail: {
          tags: ['Area'],
          summary: 'Facilities within a radius of a point',
          description:
            'Starter plan or above (Free: 403). Great-circle (haversine) distance from (lat, lng), inclusive of the radius; ' +
            '`state` and `active_enforcement` filter before `limit` applies. Order: `sort=distance` nearest first; `sort=score` lowest ' +
            'overall_score first, then nearest; then registry_id ascending. `total` counts the facilities returned. A bad or missing ' +
            'parameter is 422 VALIDATION_ERROR naming it, and is not counted; a valid query counts as one call, in any form. ' +
            'CSV or GeoJSON by `Accept` or `format` (docs/api.md, "Export forms"); a file says in `X-Total-Count` how many facilities ' +
            'matched and in `X-Truncated: true` that `limit` cut it (the JSON form\'s `total` counts what it returns). Right after a start whose index carries no stored area index, ' +
            '503 SERVICE_UNAVAILABLE with Retry-After until it is built (not counted). Details: docs/area-and-portfolio.md.',
          security: [{ apiKey: [] }],
          'x-conditional': true,
          responses: listResponses(AreaResponse, 'Facilities within the radius', ERRORS, {
            'X-Total-Count': { description: 'CSV and GeoJSON only: how many facilities match the query, before `limit`', schema: { type: 'integer', minimum: 0 } },
            'X-Truncated': { description: 'CSV and GeoJSON only: `true` when `limit` cut the list (X-Total-Count is larger than the rows sent)', schema: { type: 'string', enum: ['true', 'false'] } },
          }),
        },
      },
    );
}
