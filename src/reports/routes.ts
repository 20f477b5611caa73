import { Elysia, t } from 'elysia';
import type { OpenAPIV3 } from 'openapi-types';
import type { AppDeps } from '../deps';
import { RegistryIdParam } from '../facilities/model';
import { findFacility, findFacilityRow } from '../facilities/service';
import { apiKeyAuth } from '../access/api-key-auth';
import { ErrorEnvelope } from '../http/envelope';
import { factsOf } from '../http/request-context';
import { exportReport, openReportCache } from './service';

const errorResponse = (description: string): OpenAPIV3.ResponseObject => ({ description, content: { 'application/json': { schema: ErrorEnvelope as OpenAPIV3.SchemaObject } } });

/** The OpenAPI view of the outcomes: Elysia's schema-derived 200 would claim JSON, this says PDF. */
const DOCUMENTED_RESPONSES: OpenAPIV3.ResponsesObject = {
  200: {
    description: 'The dossier, a binary PDF attachment',
    headers: {
      'Content-Disposition': { description: 'attachment; filename="service-report-<registry_id>.pdf"', schema: { type: 'string' } },
      'X-Cache': { description: 'HIT (served from the 24 h cache), MISS (rendered and stored) or BYPASS (rendered; cache unavailable)', schema: { type: 'string', enum: ['HIT', 'MISS', 'BYPASS'] } },
    },
    content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
  },
  401: errorResponse('UNAUTHENTICATED: missing or invalid X-API-Key, or a Bearer header'),
  402: errorResponse('QUOTA_EXHAUSTED (not reachable on the tiers that may call this endpoint; listed for completeness)'),
  403: errorResponse('TIER_RESTRICTED: Free and Starter plans'),
  404: errorResponse('NOT_FOUND: registry ID not in the index, or not a well-formed ID'),
  429: errorResponse('RATE_LIMIT_EXCEEDED: monthly call limit reached (Retry-After)'),
  500: errorResponse('INTERNAL_ERROR: never caused by the cache; retry once, then report the request_id'),
  503: errorResponse('SERVICE_UNAVAILABLE: the shared state store (Redis) is unreachable (Retry-After)'),
};

/** Spec 4.5: `POST /api/v1/facility/{registry_id}/report`, a binary PDF dossier (Platform and above). */
export function reportRoutes(deps: AppDeps) {
  const cache = openReportCache(deps.config, deps.clock, deps.log);
  return new Elysia({ name: 'report-routes' }).use(apiKeyAuth(deps)).post(
    '/api/v1/facility/:registry_id/report',
    async ({ params, request, set }) => {
      // A cache hit needs only the slim row; the score inputs are read for a render.
      const facility = findFacility(deps.index, params.registry_id);
      const loadRow = () => findFacilityRow(deps.index, facility.registry_id);
      const result = await exportReport({ facility, loadRow, info: deps.index.info, cache, now: deps.clock(), requestId: factsOf(request).id });
      set.headers['content-type'] = 'application/pdf';
      // The ID is digits only (RegistryIdParam), so it is safe inside the quoted filename.
      set.headers['content-disposition'] = `attachment; filename="service-report-${facility.registry_id}.pdf"`;
      set.headers['x-cache'] = result.cache;
      set.headers['cache-control'] = 'private, no-store';
      return new Response(result.pdf);
    },
    {
      apiKey: 'report',
      params: RegistryIdParam,
      // Spec: "No request body". Whatever a client sends anyway is not read (docs/reports.md).
      parse: 'none',
      response: {
        200: t.Any({ description: 'The dossier as a binary PDF (Content-Type: application/pdf)' }),
        401: ErrorEnvelope,
        402: ErrorEnvelope,
        403: ErrorEnvelope,
        404: ErrorEnvelope,
        429: ErrorEnvelope,
        500: ErrorEnvelope,
        503: ErrorEnvelope,
      },
      detail: {
        tags: ['Reports'],
        summary: 'Export a facility dossier as PDF',
        description:
          'Spec 4.5. Platform and Enterprise only (Free and Starter: 403 TIER_RESTRICTED, not counted). Returns `application/pdf` as an ' +
          'attachment named `service-report-<registry_id>.pdf`: identity, overall score, a bar and a one-line reason per component, the ' +
          'enforcement flag, the data source and as-of date. Cached for 24 h per (registry_id, score_hash); `X-Cache` says HIT, MISS ' +
          '(rendered and stored) or BYPASS (rendered, cache unavailable). Counts as one call, cached or not; a well-formed unknown ID is ' +
          '404 and counted like a lookup, a malformed one is 404 and not counted. Any request body is ignored.',
        security: [{ apiKey: [] }],
        responses: DOCUMENTED_RESPONSES,
      },
    },
  );
}
