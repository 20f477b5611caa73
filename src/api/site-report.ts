import { Elysia } from 'elysia';
import type { OpenAPIV3 } from 'openapi-types';
import type { AppDeps } from './deps';
import { apiKeyAuth, apiKeyErrors, inputCheck, type ApiKeyRoute } from './http/api-key-auth';
import { chooseForm, FORMATS, type ResponseForm } from '../exports/format';
import { listResponses } from '../exports/response';
import { answerIn } from './http/answer-in';
import { jsonTextResponse } from './http/json-response';
import { pdfResponse } from './http/pdf-response';
import { datasetMeta } from '../shared/envelope';
import { metaFor } from './http/request-context';
import { parseJson, readJsonText } from '../portfolio/body';
import { exportSiteReport, siteReportKey } from '../site-report/export';
import { refuseIfUnchanged, weakTag } from './http/conditional';
import { locateSite } from '../site-report/locate';
import type { Geocoder } from '../demo/geocoder';
import { SiteReportBody, SiteReportQuery, SiteReportResponse } from '../site-report/model';
import { checkSiteRequest } from '../site-report/request';
import type { SiteQuery } from '../site-report/service';
import { withMeta, type RenderJob } from '../render/jobs';
import { renderSourceOf } from '../render/source';
import { asHeavy } from './http/heavy';

/** Every form of the registry: the findings as a list, or the report as a PDF document. */
const FORMS = Object.keys(FORMATS) as ResponseForm[];

/**
 * The pipeline's input step: the body (400 wrong shape, 413 too large, 422 out of range, each
 * naming its field) and the response form (`Accept` or `?format=`), after authentication and
 * before the call is counted, so a rejected request is never billed.
 */
const SITE_INPUT = inputCheck(['INVALID_BODY', 'PAYLOAD_TOO_LARGE', 'VALIDATION_ERROR'], ({ body, request }) => ({
  value: checkSiteRequest(body),
  format: chooseForm(new URL(request.url).searchParams, request.headers.get('accept'), FORMS),
}));
const SITE_REPORT: ApiKeyRoute = { endpoint: 'site_report', input: SITE_INPUT };
const ERRORS = apiKeyErrors(SITE_REPORT, 'NOT_FOUND', 'PRECONDITION_FAILED');
const HINTS = { example: '{"lat": 29.76, "lng": -95.37} or {"address": "..."}', typicalSize: 'a site report request needs under 1 KiB' };

function documentedResponses(): OpenAPIV3.ResponsesObject {
  const responses = listResponses(SiteReportResponse, 'The site report', ERRORS);
  const ok = responses[200] as OpenAPIV3.ResponseObject;
  ok.description += ' PDF (`Accept: application/pdf` or `?format=pdf`): the report as a document, cached 24 h (`X-Cache`).';
  ok.content![FORMATS.pdf.mediaType] = { schema: { type: 'string', format: 'binary' } };
  ok.headers!['X-Cache'] = { description: 'PDF only: HIT (served from the 24 h cache), MISS (rendered and stored) or BYPASS (rendered; cache unavailable)', schema: { type: 'string', enum: ['HIT', 'MISS', 'BYPASS'] } };
  return responses;
}

/** `POST /api/v1/site-report` (Platform and Enterprise): EPA ECHO facilities around a property (docs/site-report.md). */
export function siteReportRoutes(deps: AppDeps, locator: Geocoder) {
  const dataset = datasetMeta(deps.index.info);
  return new Elysia({ name: 'site-report-routes' })
    .use(apiKeyAuth(deps))
    .post(
      '/api/v1/site-report',
      async ({ input, facts, set, request }) => {
        const { value: req, format } = SITE_INPUT.from(input);
        const site = await locateSite(req, deps.index, locator);
        const reportDate = new Date(deps.clock()).toISOString().slice(0, 10);
        const query: SiteQuery = { site, name: req.name, address: req.address, distances: req.distances, approximateMeters: deps.config.siteApproximateMeters, reportDate, boundary: req.boundary };
        deps.spatial.require(); // 503 while the area index loads, before a worker is asked
        // every form is made on a render worker (docs/operations.md, "Render pool"); a cached PDF needs none
        const source = renderSourceOf(deps.index, deps.spatial);
        const render = (job: RenderJob) => asHeavy(deps, facts, () => deps.renderPool.run(source, job));
        const name = `site-report-${site.lat}_${site.lng}`;
        // every form is a Response (the JSON one in one write however large: src/wire/late-body.ts), so the async handler has one answer type
        return answerIn(format, set, {
          envelope: async () => jsonTextResponse(withMeta(await render({ kind: 'site-json', query }), metaFor(facts, deps.clock, dataset)), set),
          list: async (listForm) => ({ name, dataset, body: await render({ kind: 'site-export', query, format: listForm }) }),
          document: async () => {
            // the PDF's ETag is its cache key: a caller holding the current document gets a 412 (docs/api.md, "Conditional requests")
            refuseIfUnchanged(request, weakTag(siteReportKey(query, deps.index.info).slice(0, 32)), set);
            const now = deps.clock();
            const result = await exportSiteReport({ query, render: (documentId) => render({ kind: 'site-pdf', query, now, documentId }), info: deps.index.info, cache: deps.reportCache });
            facts.cache = result.cache;
            return pdfResponse(result.pdf, { name: `${name}.${FORMATS.pdf.extension}`, cache: result.cache }, set);
          },
        });
      },
      {
        // Runs before authentication, so it only reads (at most 64 KiB); a bad body is reported by the input step, after 401/403.
        parse: async ({ request }) => {
          const text = await readJsonText(request, HINTS);
          return typeof text === 'string' ? parseJson(text) : text;
        },
        apiKey: SITE_REPORT,
        body: SiteReportBody,
        query: SiteReportQuery,
        response: { 200: SiteReportResponse, ...ERRORS },
        detail: {
          tags: ['Site report'],
          summary: 'Screen the EPA ECHO records around a property',
          description:
            'Platform and Enterprise (Free and Starter: 403 TIER_RESTRICTED, not counted). Body: `lat` and `lng`, or `address` (located offline against ' +
            'the index: the facility filed at that address, else the centre of its ZIP, which is approximate and says so; unlocatable: 404, counted), ' +
            'optional `zip`, `name` and `search_distances` ({category: miles}, 0 < miles ≤ 2). Lists every facility within each category\'s ' +
            'search distance (adjoining 0.25, snc 1.0, enforcement 0.5, rcra_tsd 1.0, rcra_generator 0.25, tri 1.0, npdes 0.5, caa_major 0.5 by default), ' +
            'nearest first, with haversine distance, 16-point direction and every category it falls under; facilities without coordinates in the ' +
            "site's ZIP; a per-category count by distance band; the sources searched and the ASTM E1527-21 record sources not searched. A shape " +
            'error is 400 INVALID_BODY, a value out of range 422 VALIDATION_ERROR, each naming the field; not counted. One counted call in any ' +
            'form: JSON, CSV or GeoJSON of the findings, or the PDF report (`Accept: application/pdf` or `?format=pdf`; cached 24 h by site, ' +
            'distances and index). Made on the render pool: an account over its concurrent renders (2 by default) gets 429 RATE_LIMIT_EXCEEDED, a full queue 503, both with Retry-After and not counted. Details: docs/site-report.md.',
          security: [{ apiKey: [] }],
          'x-conditional': true,
          responses: documentedResponses(),
        },
      },
    );
}
