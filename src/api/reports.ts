import { Elysia, t } from 'elysia';
import type { OpenAPIV3 } from 'openapi-types';
import type { AppDeps } from './deps';
import { RegistryIdParam } from '../facilities/model';
import { findFacility } from '../facilities/service';
import { apiKeyAuth, apiKeyErrors } from './http/api-key-auth';
import { pdfResponse } from './http/pdf-response';
import { exportReport, reportKey } from '../reports/service';
import { renderSourceOf } from '../render/source';
import { refuseIfUnchanged, weakTag } from './http/conditional';
import { asHeavy } from './http/heavy';

const ERRORS = apiKeyErrors('report', 'NOT_FOUND', 'PRECONDITION_FAILED');

/** The OpenAPI view of the outcomes: Elysia's schema-derived 200 would claim JSON, this says PDF. */
const DOCUMENTED_RESPONSES: OpenAPIV3.ResponsesObject = {
  ...Object.fromEntries(
    Object.entries(ERRORS).map(([status, schema]) => [status, { description: schema.description!, content: { 'application/json': { schema: schema as OpenAPIV3.SchemaObject } } }]),
  ),
  200: {
    description: 'The dossier, a binary PDF attachment',
    headers: {
      'Content-Disposition': { description: 'attachment; filename="service-report-<registry_id>.pdf"', schema: { type: 'string' } },
      'X-Cache': { description: 'HIT (served from the 24 h cache), MISS (rendered and stored) or BYPASS (rendered; cache unavailable)', schema: { type: 'string', enum: ['HIT', 'MISS', 'BYPASS'] } },
    },
    content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
  },
};

/** `POST /api/v1/facility/{registry_id}/report`, a binary PDF dossier (Platform and above). */
export function reportRoutes(deps: AppDeps) {
  const cache = deps.reportCache;
  return new Elysia({ name: 'report-routes' }).use(apiKeyAuth(deps)).post(
    '/api/v1/facility/:registry_id/report',
    async ({ params, facts, set, request }) => {
      const facility = findFacility(deps.index, params.registry_id);
      const releases = deps.index.releases().length;
      // the ETag is the document's cache key: a caller holding the current dossier gets a 412 (docs/api.md, "Conditional requests")
      refuseIfUnchanged(request, weakTag(reportKey(facility, deps.index.info, releases).slice(0, 32)), set);
      const now = deps.clock();
      // A cache hit is read here; a render runs on a render worker (docs/operations.md, "Render pool").
      const render = (documentId: string) =>
        asHeavy(deps, facts, () => deps.renderPool.run(renderSourceOf(deps.index, deps.spatial), { kind: 'dossier-pdf', registryId: facility.registry_id, now, documentId }));
      const result = await exportReport({ facility, render, releases, info: deps.index.info, cache });
      facts.cache = result.cache;
      // The ID is digits only (RegistryIdParam), so it is safe inside the quoted filename.
      return pdfResponse(result.pdf, { name: `service-report-${facility.registry_id}.pdf`, cache: result.cache }, set);
    },
    {
      apiKey: 'report',
      params: RegistryIdParam,
      // The dossier takes no request body. Whatever a client sends anyway is not read (docs/reports.md).
      parse: 'none',
      response: {
        200: t.Any({ description: 'The dossier as a binary PDF (Content-Type: application/pdf)' }),
        ...ERRORS,
      },
      detail: {
        tags: ['Reports'],
        summary: 'Export a facility dossier as PDF',
        description:
          'Platform and Enterprise only (Free and Starter: 403 TIER_RESTRICTED, not counted). Returns `application/pdf` as an ' +
          'attachment named `service-report-<registry_id>.pdf`: identity, overall score, a bar and a one-line reason per component, the ' +
          'enforcement flag, the data source and as-of date. Cached for 24 h per (registry_id, score_hash); `X-Cache` says HIT, MISS ' +
          '(rendered and stored) or BYPASS (rendered, cache unavailable). Counts as one call, cached or not; a well-formed unknown ID is ' +
          '404 and counted like a lookup, a malformed one is 404 and not counted. Any request body is ignored. A render runs on the render pool: ' +
          'an account over its concurrent renders (2 by default) gets 429 RATE_LIMIT_EXCEEDED, a full queue 503, both with Retry-After and not counted.',
        security: [{ apiKey: [] }],
          'x-conditional': true,
        responses: DOCUMENTED_RESPONSES,
      },
    },
  );
}
