import { Elysia } from 'elysia';
import type { AppDeps } from '../deps';
import { apiKeyAuth } from '../access/api-key-auth';
import { ErrorEnvelope } from '../http/envelope';
import { metaFor } from '../http/request-context';
import { exportable, formatOf } from '../exports/plugin';
import { errorResponse, exportResponse, listResponse200 } from '../exports/response';
import { AreaFacility, AreaQuery, AreaResponse } from './model';
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
    .use(exportable)
    .get(
      '/api/v1/area',
      ({ request }) => {
        const q = parsed.get(request)!;
        const data = findWithinRadius(deps.index, spatialIndexFor(deps.index, deps.log), q);
        const format = formatOf(request);
        if (format === 'json') return { data, meta: metaFor(request, deps.clock) };
        const ids = data.facilities.map((f) => f.registry_id);
        return exportResponse(format, {
          name: `area-${q.lat}_${q.lng}-${q.radiusMiles}mi`,
          items: data.facilities,
          locations: deps.index.getLocations(ids),
          columns: Object.keys(AreaFacility.properties),
        });
      },
      {
        apiKey: 'area',
        areaQuery: true,
        exportable: true,
        query: AreaQuery,
        response: { 200: AreaResponse, 401: ErrorEnvelope, 402: ErrorEnvelope, 403: ErrorEnvelope, 422: ErrorEnvelope, 429: ErrorEnvelope, 500: ErrorEnvelope, 503: ErrorEnvelope },
        detail: {
          tags: ['Area'],
          summary: 'Facilities within a radius of a point',
          description:
            'Spec 4.3. Starter plan or above (Free: 403). Great-circle (haversine) distance from (lat, lng), inclusive of the radius; ' +
            '`state` and `active_enforcement` filter before `limit` applies. Order: `sort=distance` nearest first; `sort=score` lowest ' +
            'overall_score first, then nearest; then registry_id ascending. `total` counts the facilities returned. A bad or missing ' +
            'parameter is 422 VALIDATION_ERROR naming it, and is not counted; a valid query counts as one call, in any form. ' +
            'CSV or GeoJSON by `Accept` or `format` (docs/api.md, "Export forms"). Details: docs/area-and-portfolio.md.',
          security: [{ apiKey: [] }],
          responses: {
            200: listResponse200(AreaResponse, 'Facilities within the radius'),
            401: errorResponse(ErrorEnvelope, 'UNAUTHENTICATED: missing or invalid X-API-Key, or a Bearer header'),
            402: errorResponse(ErrorEnvelope, 'QUOTA_EXHAUSTED (not reachable on the tiers that may call this endpoint; listed for completeness)'),
            403: errorResponse(ErrorEnvelope, 'TIER_RESTRICTED: Free plan ("The area endpoint requires a Starter plan or above")'),
            422: errorResponse(ErrorEnvelope, 'VALIDATION_ERROR: a missing or out-of-range parameter (named in the message), or an unknown format'),
            429: errorResponse(ErrorEnvelope, 'RATE_LIMIT_EXCEEDED: monthly call limit reached (Retry-After)'),
            500: errorResponse(ErrorEnvelope, 'INTERNAL_ERROR: retry once, then report the request_id'),
            503: errorResponse(ErrorEnvelope, 'SERVICE_UNAVAILABLE: the shared state store (Redis) is unreachable (Retry-After)'),
          },
        },
      },
    );
}
