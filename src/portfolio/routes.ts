import { Elysia } from 'elysia';
import type { AppDeps } from '../deps';
import { apiKeyAuth } from '../access/api-key-auth';
import { ErrorEnvelope } from '../http/envelope';
import { factsOf, metaFor } from '../http/request-context';
import { checkPortfolioBody, parseJson, readJsonText } from './body';
import { PortfolioBody, PortfolioResponse } from './model';
import { lookupPortfolio } from './service';

// What the parse hook read (JSON value or the AppError saying why not), then the checked IDs.
const rawBodies = new WeakMap<Request, unknown>();
const checkedIds = new WeakMap<Request, string[]>();
const PLACEHOLDER = Object.freeze({ registry_ids: [] as string[] });

/**
 * `portfolioBody: true`: after authentication (listed after `apiKey`), turns what the parse hook
 * read into the ID list: 400 for a body that is not `{"registry_ids": [string...]}`, 422 over the
 * tier's batch limit. Both before the call is counted, so rejected requests are free.
 */
const portfolioBody = new Elysia({ name: 'portfolio-body' }).macro({
  portfolioBody: (_on: boolean) => ({
    transform({ request }) {
      checkedIds.set(request, checkPortfolioBody(rawBodies.get(request), factsOf(request).tier!));
    },
  }),
});

export function portfolioRoutes(deps: AppDeps) {
  return new Elysia({ name: 'portfolio-routes' })
    .use(apiKeyAuth(deps))
    .use(portfolioBody)
    .post(
      '/api/v1/portfolio',
      ({ request }) => ({ data: lookupPortfolio(deps.index, checkedIds.get(request)!), meta: metaFor(request, deps.clock) }),
      {
        // Runs before authentication, so it only reads (capped: a huge body costs at most 64 KiB
        // of reading) and records; `portfolioBody` reports problems after a 401/403 had its chance.
        parse: async ({ request }) => {
          const text = await readJsonText(request);
          rawBodies.set(request, typeof text === 'string' ? parseJson(text) : text);
          return PLACEHOLDER;
        },
        apiKey: 'portfolio',
        portfolioBody: true,
        body: PortfolioBody,
        response: {
          200: PortfolioResponse,
          400: ErrorEnvelope,
          401: ErrorEnvelope,
          402: ErrorEnvelope,
          403: ErrorEnvelope,
          413: ErrorEnvelope,
          422: ErrorEnvelope,
          429: ErrorEnvelope,
          500: ErrorEnvelope,
          503: ErrorEnvelope,
        },
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
