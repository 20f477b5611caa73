import { Elysia } from 'elysia';
import type { AppDeps } from '../deps';
import { apiKeyAuth } from '../access/api-key-auth';
import { ErrorEnvelope } from '../http/envelope';
import { factsOf, metaFor } from '../http/request-context';
import { checkPortfolioBody, parseJson, readJsonText } from './body';
import { exportable, formatOf } from '../exports/plugin';
import { errorResponse, exportResponse, listResponse200 } from '../exports/response';
import { PortfolioBody, PortfolioItem, PortfolioResponse } from './model';
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
    .use(exportable)
    .post(
      '/api/v1/portfolio',
      ({ request }) => {
        const data = lookupPortfolio(deps.index, checkedIds.get(request)!);
        const format = formatOf(request);
        if (format === 'json') return { data, meta: metaFor(request, deps.clock) };
        // A file has no room for `not_found`: its size is a header, the IDs are in the JSON form.
        return exportResponse(
          format,
          {
            name: `portfolio-${data.total}-facilities`,
            items: data.results,
            locations: deps.index.getLocations(data.results.map((r) => r.registry_id)),
            columns: Object.keys(PortfolioItem.properties),
          },
          { 'x-not-found-count': String(data.not_found.length) },
        );
      },
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
        exportable: true,
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
            'One request counts as one call, whatever its size and form. CSV or GeoJSON by `Accept` or `format` (docs/api.md, ' +
            '"Export forms"; `X-Not-Found-Count` says how many IDs were not found). Details: docs/area-and-portfolio.md.',
          security: [{ apiKey: [] }],
          responses: {
            200: listResponse200(PortfolioResponse, 'The facilities found, and the IDs not found'),
            400: errorResponse(ErrorEnvelope, 'INVALID_BODY: malformed JSON, another content type, or a body of another shape'),
            401: errorResponse(ErrorEnvelope, 'UNAUTHENTICATED: missing or invalid X-API-Key, or a Bearer header'),
            402: errorResponse(ErrorEnvelope, 'QUOTA_EXHAUSTED (not reachable on the tiers that may call this endpoint; listed for completeness)'),
            403: errorResponse(ErrorEnvelope, 'TIER_RESTRICTED: Free plan'),
            413: errorResponse(ErrorEnvelope, 'PAYLOAD_TOO_LARGE: a body over 64 KiB'),
            422: errorResponse(ErrorEnvelope, 'VALIDATION_ERROR: more IDs than the plan allows, or an unknown format'),
            429: errorResponse(ErrorEnvelope, 'RATE_LIMIT_EXCEEDED: monthly call limit reached (Retry-After)'),
            500: errorResponse(ErrorEnvelope, 'INTERNAL_ERROR: retry once, then report the request_id'),
            503: errorResponse(ErrorEnvelope, 'SERVICE_UNAVAILABLE: the shared state store (Redis) is unreachable (Retry-After)'),
          },
        },
      },
    );
}
