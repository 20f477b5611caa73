import { Elysia } from 'elysia';
import type { AppDeps } from './deps';
import { apiKeyAuth, apiKeyErrors, type ApiKeyRoute } from './http/api-key-auth';
import { exportableInput } from './http/exportable';
import { listResponses } from '../exports/response';
import { answerIn } from './http/answer-in';
import { bulkyJsonResponse } from './http/json-response';
import { datasetMeta } from '../shared/envelope';
import { metaFor } from './http/request-context';
import { checkPortfolioBody, parseJson, readJsonText } from '../portfolio/body';
import { PortfolioBody, PortfolioItem, PortfolioQuery, PortfolioResponse } from '../portfolio/model';
import { lookupPortfolio } from '../portfolio/service';

/**
 * The pipeline's input step turns what the parse hook read into the ID list, after authentication:
 * 400 for a body that is not `{"registry_ids": [string...]}` (413 when it was too large to read),
 * 422 over the tier's batch limit. All before the call is counted, so rejected requests are free.
 */
const PORTFOLIO_BODY = exportableInput(['INVALID_BODY', 'PAYLOAD_TOO_LARGE', 'VALIDATION_ERROR'], ({ body, caller }) => checkPortfolioBody(body, caller.tier));
const PORTFOLIO: ApiKeyRoute = { endpoint: 'portfolio', input: PORTFOLIO_BODY };
const ERRORS = apiKeyErrors(PORTFOLIO);

export function portfolioRoutes(deps: AppDeps) {
  const dataset = datasetMeta(deps.index.info);
  return new Elysia({ name: 'portfolio-routes' })
    .use(apiKeyAuth(deps))
    .post(
      '/api/v1/portfolio',
      ({ input, facts, set }) => {
        const { value: ids, format } = PORTFOLIO_BODY.from(input);
        return answerIn(format, set, {
          envelope: () => bulkyJsonResponse({ data: lookupPortfolio(deps.index, ids), meta: metaFor(facts, deps.clock, dataset) }, set),
          list: () => {
            // The export forms need locations: read with the briefs, in the same statement.
            const locations = new Map<string, { lat: number; lng: number }>();
            const data = lookupPortfolio(deps.index, ids, locations);
            // A file has no room for `not_found`: its size is a header, the IDs are in the JSON form.
            return {
              name: `portfolio-${data.total}-facilities`,
              items: data.results,
              locations,
              columns: Object.keys(PortfolioItem.properties),
              dataset,
              headers: { 'x-not-found-count': String(data.not_found.length) },
            };
          },
        });
      },
      {
        // Runs before authentication, so it only reads (capped: a huge body costs at most 64 KiB
        // of reading): the body is the JSON value or the AppError saying why there is none, which
        // the input step reports after a 401/403 had its chance.
        parse: async ({ request }) => {
          const text = await readJsonText(request);
          return typeof text === 'string' ? parseJson(text) : text;
        },
        apiKey: PORTFOLIO,
        // Documents the body; what the handler reads is `input`, the checked IDs.
        body: PortfolioBody,
        query: PortfolioQuery,
        response: { 200: PortfolioResponse, ...ERRORS },
        detail: {
          tags: ['Portfolio'],
          summary: 'Look up a batch of facilities by registry ID',
          description:
            'Starter (10 IDs), Platform (60), Enterprise (500); Free: 403. Body `{"registry_ids": [...]}` as ' +
            'application/json, at most 64 KiB (413 PAYLOAD_TOO_LARGE beyond, checked before the body is read). Malformed JSON, ' +
            'another content type, or a body of another shape: 400 INVALID_BODY. More IDs than the plan allows (counted as sent): ' +
            '422 VALIDATION_ERROR. Unknown IDs go to `not_found`; duplicates are answered once; order follows the request. ' +
            'One request counts as one call, whatever its size and form. CSV or GeoJSON by `Accept` or `format` (docs/search.md, ' +
            '"Export forms"; `X-Not-Found-Count` says how many IDs were not found). Details: docs/area-and-portfolio.md.',
          security: [{ apiKey: [] }],
          responses: listResponses(PortfolioResponse, 'The facilities found, and the IDs not found', ERRORS, {
            'X-Not-Found-Count': { description: 'CSV and GeoJSON only: how many of the IDs sent are not in the index (the JSON form lists them in `not_found`)', schema: { type: 'integer', minimum: 0 } },
          }),
        },
      },
    );
}
