import { Elysia } from 'elysia';
import type { AppDeps } from '../deps';
import { apiKeyAuth } from '../access/api-key-auth';
import { ErrorEnvelope } from '../http/envelope';
import { metaFor } from '../http/request-context';
import { AreaQuery, AreaResponse } from './model';
import { parseAreaQuery } from './query';
import { findWithinRadius } from './service';
import { spatialIndexFor } from './spatial-registry';
import type { RadiusQuery } from './spatial-search';

const parsed = new WeakMap<Request, RadiusQuery>();

/**
 * `areaQuery: true` reads the query strictly (422 naming each bad parameter). Listed after
 * `apiKey` on the route, so its transform runs after authentication (401/403 first) and before
 * the call is counted: a rejected query is never billed.
 */
const areaQuery = new Elysia({ name: 'area-query' }).macro({
  areaQuery: (_on: boolean) => ({
    transform({ request }) {
      parsed.set(request, parseAreaQuery(new URL(request.url).searchParams));
    },
  }),
});

export function areaRoutes(deps: AppDeps) {
  return new Elysia({ name: 'area-routes' })
    .use(apiKeyAuth(deps))
    .use(areaQuery)
    .get(
      '/api/v1/area',
      ({ request }) => ({
        data: findWithinRadius(deps.index, spatialIndexFor(deps.index, deps.log), parsed.get(request)!),
        meta: metaFor(request, deps.clock),
      }),
      {
        apiKey: 'area',
        areaQuery: true,
        query: AreaQuery,
        response: { 200: AreaResponse, 401: ErrorEnvelope, 402: ErrorEnvelope, 403: ErrorEnvelope, 422: ErrorEnvelope, 429: ErrorEnvelope, 500: ErrorEnvelope, 503: ErrorEnvelope },
        detail: {
          tags: ['Area'],
          summary: 'Facilities within a radius of a point',
          description:
            'Spec 4.3. Starter plan or above (Free: 403). Great-circle (haversine) distance from (lat, lng), inclusive of the radius; ' +
            '`state` and `active_enforcement` filter before `limit` applies. Order: `sort=distance` nearest first; `sort=score` lowest ' +
            'overall_score first, then nearest; then registry_id ascending. `total` counts the facilities returned. A bad or missing ' +
            'parameter is 422 VALIDATION_ERROR naming it, and is not counted; a valid query counts as one call. Details: docs/area-and-portfolio.md.',
          security: [{ apiKey: [] }],
        },
      },
    );
}
