import { Elysia } from 'elysia';
import type { AppDeps } from '../deps';
import { apiKeyAuth, apiKeyErrors, inputCheck, type ApiKeyRoute } from '../access/api-key-auth';
import { metaFor } from '../http/request-context';
import { AreaQuery, AreaResponse } from './model';
import { parseAreaQuery } from './query';
import { findWithinRadius } from './service';
import type { SpatialHandle } from './spatial-handle';

/**
 * The query is read strictly (422 naming each bad parameter), then the spatial index is taken
 * (503 with Retry-After while it is still being made after a start: docs/area-and-portfolio.md), by
 * the pipeline's input step: after authentication (401/403 first) and before the call is counted,
 * so neither a rejected query nor a 503 is ever billed.
 */
function areaRoute(spatial: SpatialHandle) {
  const input = inputCheck(['VALIDATION_ERROR', 'SERVICE_UNAVAILABLE'], ({ request }) => ({
    query: parseAreaQuery(new URL(request.url).searchParams),
    index: spatial.require(),
  }));
  return { endpoint: 'area', input } satisfies ApiKeyRoute;
}

export function areaRoutes(deps: AppDeps) {
  const AREA = areaRoute(deps.spatial);
  return new Elysia({ name: 'area-routes' })
    .use(apiKeyAuth(deps))
    .get(
      '/api/v1/area',
      ({ input, facts }) => {
        const { query, index } = AREA.input.from(input);
        return { data: findWithinRadius(index, query), meta: metaFor(facts, deps.clock) };
      },
      {
        apiKey: AREA,
        query: AreaQuery,
        response: { 200: AreaResponse, ...apiKeyErrors(AREA) },
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
