import { Elysia } from 'elysia';
import type { AppDeps } from '../deps';
import { apiKeyAuth } from '../access/api-key-auth';
import { ErrorEnvelope } from '../http/envelope';
import { metaFor } from '../http/request-context';
import { AreaQuery, AreaResponse } from './model';
import { parseAreaQuery } from './query';
import { findWithinRadius } from './service';
import type { SpatialHandle } from './spatial-handle';
import type { SpatialIndex } from './spatial-index';
import type { RadiusQuery } from './spatial-search';

const parsed = new WeakMap<Request, { query: RadiusQuery; spatial: SpatialIndex }>();

/**
 * `areaQuery: true` reads the query strictly (422 naming each bad parameter), then takes the
 * spatial index (503 with Retry-After while it is still being made at start). Listed after
 * `apiKey` on the route, so its transform runs after authentication (401/403 first) and before
 * the call is counted: a rejected query is never billed.
 */
function areaQuery(spatial: SpatialHandle) {
  return new Elysia({ name: 'area-query' }).macro({
    areaQuery: (_on: boolean) => ({
      transform({ request }) {
        const query = parseAreaQuery(new URL(request.url).searchParams);
        parsed.set(request, { query, spatial: spatial.require() });
      },
    }),
  });
}

export function areaRoutes(deps: AppDeps) {
  return new Elysia({ name: 'area-routes' })
    .use(apiKeyAuth(deps))
    .use(areaQuery(deps.spatial))
    .get(
      '/api/v1/area',
      ({ request }) => {
        const { query, spatial } = parsed.get(request)!;
        return { data: findWithinRadius(spatial, query), meta: metaFor(request, deps.clock) };
      },
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
            'parameter is 422 VALIDATION_ERROR naming it, and is not counted; a valid query counts as one call. Right after a start whose ' +
            'index carries no stored area index, 503 SERVICE_UNAVAILABLE with Retry-After until it is built (not counted). Details: docs/area-and-portfolio.md.',
          security: [{ apiKey: [] }],
        },
      },
    );
}
