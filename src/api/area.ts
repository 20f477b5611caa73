import { Elysia } from 'elysia';
import type { AppDeps } from './deps';
import { apiKeyAuth, apiKeyErrors, type ApiKeyRoute } from './http/api-key-auth';
import { exportableInput } from './http/exportable';
import { listResponses } from '../exports/response';
import { answerIn } from './http/answer-in';
import { bulkyJsonResponse } from './http/json-response';
import { metaFor } from './http/request-context';
import { AreaFacility, AreaQuery, AreaResponse } from '../area/model';
import { parseAreaQuery } from '../area/query';
import { countWithinRadius, findWithinRadius } from '../area/service';

/**
 * The query is read strictly (422 naming each bad parameter) by the pipeline's input step: after
 * authentication (401/403 first) and before the call is counted, so a rejected query is never billed.
 * The spatial index is taken in the handler: 503 with Retry-After while it is still being made after
 * a start (docs/area-and-portfolio.md); a 5xx gives the counted call back (error handler).
 */
const AREA_QUERY = exportableInput(['VALIDATION_ERROR'], ({ request }) => parseAreaQuery(new URL(request.url).searchParams));
const AREA: ApiKeyRoute = { endpoint: 'area', input: AREA_QUERY };
const ERRORS = apiKeyErrors(AREA);

export function areaRoutes(deps: AppDeps) {
  return new Elysia({ name: 'area-routes' })
    .use(apiKeyAuth(deps))
    .get(
      '/api/v1/area',
      ({ input, facts, set }) => {
        const { value: q, format } = AREA_QUERY.from(input);
        const spatial = deps.spatial.require();
        const data = findWithinRadius(spatial, q);
        // every form is a Response: a 500-facility answer is ~70 KB, sent in one write (json-response.ts)
        return answerIn(format, set, {
          envelope: () => bulkyJsonResponse({ data, meta: metaFor(facts, deps.clock) }, set),
          list: () => {
            // A file has no `total` beside its rows: headers say how many matched and whether `limit` cut the list.
            const matched = data.total < q.limit ? data.total : countWithinRadius(spatial, q);
            return {
              name: `area-${q.lat}_${q.lng}-${q.radiusMiles}mi`,
              items: data.facilities,
              locations: deps.index.getLocations(data.facilities.map((f) => f.registry_id)),
              columns: Object.keys(AreaFacility.properties),
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
            'Spec 4.3. Starter plan or above (Free: 403). Great-circle (haversine) distance from (lat, lng), inclusive of the radius; ' +
            '`state` and `active_enforcement` filter before `limit` applies. Order: `sort=distance` nearest first; `sort=score` lowest ' +
            'overall_score first, then nearest; then registry_id ascending. `total` counts the facilities returned. A bad or missing ' +
            'parameter is 422 VALIDATION_ERROR naming it, and is not counted; a valid query counts as one call, in any form. ' +
            'CSV or GeoJSON by `Accept` or `format` (docs/search.md, "Export forms"); a file says in `X-Total-Count` how many facilities ' +
            'matched and in `X-Truncated: true` that `limit` cut it (the JSON form\'s `total` counts what it returns, as spec 4.3 says). Right after a start whose index carries no stored area index, ' +
            '503 SERVICE_UNAVAILABLE with Retry-After until it is built (not counted). Details: docs/area-and-portfolio.md.',
          security: [{ apiKey: [] }],
          responses: listResponses(AreaResponse, 'Facilities within the radius', ERRORS, {
            'X-Total-Count': { description: 'CSV and GeoJSON only: how many facilities match the query, before `limit`', schema: { type: 'integer', minimum: 0 } },
            'X-Truncated': { description: 'CSV and GeoJSON only: `true` when `limit` cut the list (X-Total-Count is larger than the rows sent)', schema: { type: 'string', enum: ['true', 'false'] } },
          }),
        },
      },
    );
}
