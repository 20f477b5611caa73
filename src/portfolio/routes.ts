import { Elysia } from 'elysia';
import type { AppDeps } from '../deps';
import { apiKeyAuth, apiKeyErrors, inputCheck, type ApiKeyRoute } from '../access/api-key-auth';
import { metaFor } from '../http/request-context';
import { checkPortfolioBody, parseJson, readJsonText } from './body';
import { PortfolioBody, PortfolioResponse } from './model';
import { lookupPortfolio } from './service';

/**
 * The pipeline's input step turns what the parse hook read into the ID list, after authentication:
 * 400 for a body that is not `{"registry_ids": [string...]}` (413 when it was too large to read),
 * 422 over the tier's batch limit. All before the call is counted, so rejected requests are free.
 */
const PORTFOLIO_BODY = inputCheck(['INVALID_BODY', 'PAYLOAD_TOO_LARGE', 'VALIDATION_ERROR'], ({ body, caller }) => checkPortfolioBody(body, caller.tier));
const PORTFOLIO: ApiKeyRoute = { endpoint: 'portfolio', input: PORTFOLIO_BODY };

export function portfolioRoutes(deps: AppDeps) {
  return new Elysia({ name: 'portfolio-routes' })
    .use(apiKeyAuth(deps))
    .post(
      '/api/v1/portfolio',
      ({ input, facts }) => ({ data: lookupPortfolio(deps.index, PORTFOLIO_BODY.from(input)), meta: metaFor(facts, deps.clock) }),
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
        response: { 200: PortfolioResponse, ...apiKeyErrors(PORTFOLIO) },
        detail: {
          tags: ['Portfolio'],
          summary: 'Look up a batch of facilities by registry ID',
          description:
            'Spec 4.2. Starter (10 IDs), Platform (60), Enterprise (500); Free: 403. Body `{"registry_ids": [...]}` as ' +
            'application/json, at most 64 KiB (413 PAYLOAD_TOO_LARGE beyond, checked before the body is read). Malformed JSON, ' +
            'another content type, or a body of another shape: 400 INVALID_BODY. More IDs than the plan allows (counted as sent): ' +
            '422 VALIDATION_ERROR. Unknown IDs go to `not_found`; duplicates are answered once; order follows the request. ' +
            'One request counts as one call, whatever its size. Details: docs/area-and-portfolio.md.',
          security: [{ apiKey: [] }],
        },
      },
    );
}
