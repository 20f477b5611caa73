import { Elysia } from 'elysia';
import type { OpenAPIV3 } from 'openapi-types';
import type { AppDeps } from './deps';
import { apiKeyAuth, apiKeyErrors, inputCheck, type ApiKeyRoute } from './http/api-key-auth';
import { chooseForm, FORMATS, type ResponseForm } from '../exports/format';
import { listResponses } from '../exports/response';
import { answerIn } from './http/answer-in';
import { jsonTextResponse } from './http/json-response';
import { pdfResponse } from './http/pdf-response';
import { metaFor } from './http/request-context';
import { parseJson, readJsonText } from '../portfolio/body';
import { FacilitySearch } from '../search/facility-search';
import { exportSiteReport } from '../site-report/export';
import { siteReportJson } from '../site-report/json-body';
import { locateSite, offlineLocator } from '../site-report/locate';
import { Finding, SiteReportBody, SiteReportQuery, SiteReportResponse } from '../site-report/model';
import { checkSiteRequest } from '../site-report/request';
import { buildSiteReport, type SiteQuery } from '../site-report/service';
import type { Location } from '../index/model';

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
const ERRORS = apiKeyErrors(SITE_REPORT, 'NOT_FOUND');
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
export function siteReportRoutes(deps: AppDeps) {
  const locator = offlineLocator(deps.index, FacilitySearch.open(deps.index));
  return new Elysia({ name: 'site-report-routes' })
    .use(apiKeyAuth(deps))
    .post(
      '/api/v1/site-report',
      async ({ input, facts, set }) => {
        const { value: req, format } = SITE_INPUT.from(input);
        const site = await locateSite(req, deps.index, locator);
        const query: SiteQuery = { site, name: req.name, address: req.address, distances: req.distances };
        // `locations` (the export forms) receives each finding's coordinates with the report
        const build = (locations?: Map<string, Location>) => buildSiteReport(deps.index, deps.spatial.require(), query, locations);
        const name = `site-report-${site.lat}_${site.lng}`;
        // every form is a Response (the JSON one in one write however large: src/shared/late-body.ts), so the async handler has one answer type
        return answerIn(format, set, {
          // the JSON written straight to bytes, findings from the spatial index's arrays (src/site-report/json-body.ts)
          envelope: () => jsonTextResponse(siteReportJson(deps.index, deps.spatial.require(), query, metaFor(facts, deps.clock)), set),
          list: () => {
            const locations = new Map<string, Location>();
            const data = build(locations);
            return { name, items: data.findings, locations, columns: Object.keys(Finding.properties) };
          },
          document: async () => {
            const result = await exportSiteReport({ query, build, info: deps.index.info, cache: deps.reportCache, now: deps.clock() });
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
            'distances and index). Details: docs/site-report.md.',
          security: [{ apiKey: [] }],
          responses: documentedResponses(),
        },
      },
    );
}
