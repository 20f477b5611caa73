import { Elysia } from 'elysia';
import type { OpenAPIV3 } from 'openapi-types';
import type { AppDeps } from '../deps';
import { apiKeyAuth } from '../access/api-key-auth';
import { exportable, formatOf } from '../exports/plugin';
import { errorResponse, exportResponse, listResponse200 } from '../exports/response';
import { ErrorEnvelope } from '../http/envelope';
import { metaFor } from '../http/request-context';
import { FacilitySearch } from './facility-search';
import { SearchFacility, SearchQuery, SearchResponse } from './model';
import { parseSearchQuery, type SearchRequest } from './query';
import { searchFacilities } from './service';

const parsed = new WeakMap<Request, SearchRequest>();

/**
 * `searchQuery: <FacilitySearch>` reads the query strictly (422 naming each bad parameter; a cursor
 * is checked against this index). Listed after `apiKey`, so it runs after authentication (401/403
 * first) and before the call is counted: a rejected query is never billed.
 */
const searchQuery = new Elysia({ name: 'search-query' }).macro({
  searchQuery: (search: FacilitySearch) => ({
    transform({ request }) {
      parsed.set(request, parseSearchQuery(new URL(request.url).searchParams, search.fingerprint));
    },
  }),
});

const DOCUMENTED_RESPONSES: OpenAPIV3.ResponsesObject = {
  200: listResponse200(SearchResponse, 'One page of matching facilities'),
  401: errorResponse(ErrorEnvelope, 'UNAUTHENTICATED: missing or invalid X-API-Key, or a Bearer header'),
  402: errorResponse(ErrorEnvelope, 'QUOTA_EXHAUSTED (not reachable on the tiers that may call this endpoint; listed for completeness)'),
  403: errorResponse(ErrorEnvelope, 'TIER_RESTRICTED: Free plan ("The search endpoint requires a Starter plan or above")'),
  422: errorResponse(ErrorEnvelope, 'VALIDATION_ERROR: a bad parameter (named in the message), an unusable q, a cursor not made for this search, or an unknown format'),
  429: errorResponse(ErrorEnvelope, 'RATE_LIMIT_EXCEEDED: monthly call limit reached (Retry-After)'),
  500: errorResponse(ErrorEnvelope, 'INTERNAL_ERROR: retry once, then report the request_id'),
  503: errorResponse(ErrorEnvelope, 'SERVICE_UNAVAILABLE: the shared state store (Redis) is unreachable (Retry-After)'),
};

/** `GET /api/v1/search`: facilities by words of their name, street, city or ZIP (docs/search.md). */
export function searchRoutes(deps: AppDeps) {
  const search = new FacilitySearch(deps.index);
  return new Elysia({ name: 'search-routes' })
    .use(apiKeyAuth(deps))
    .use(searchQuery)
    .use(exportable)
    .get(
      '/api/v1/search',
      ({ request }) => {
        const r = parsed.get(request)!;
        const { result, locations } = searchFacilities(search, r);
        const format = formatOf(request);
        if (format === 'json') return { data: result, meta: metaFor(request, deps.clock) };
        const headers: Record<string, string> = {};
        if (result.next_cursor) {
          const next = new URL(request.url);
          next.searchParams.set('cursor', result.next_cursor);
          headers.link = `<${next.pathname}${next.search}>; rel="next"`;
        }
        return exportResponse(
          format,
          { name: `search-${r.words.join('-')}`.slice(0, 60), items: result.facilities, locations, columns: Object.keys(SearchFacility.properties) },
          headers,
        );
      },
      {
        apiKey: 'search',
        searchQuery: search,
        exportable: true,
        query: SearchQuery,
        response: { 200: SearchResponse, 401: ErrorEnvelope, 402: ErrorEnvelope, 403: ErrorEnvelope, 422: ErrorEnvelope, 429: ErrorEnvelope, 500: ErrorEnvelope, 503: ErrorEnvelope },
        detail: {
          tags: ['Search'],
          summary: 'Find facilities by name, street, city or ZIP',
          description:
            'Starter plan or above (Free: 403). Every word of `q` must match the start of a word of the facility\'s name, street, city ' +
            'or ZIP (`acme plat elkh` finds ACME PLATING INC in ELKHART); punctuation, quotes and words such as AND/OR/NOT/NEAR are ' +
            'plain text. Filters `state`, `naics` (prefix), `min_score`, `max_score`, `active_enforcement` apply before paging. ' +
            '`sort=relevance` (default) or `score` (worst first). Pages of `limit` (default 20, max 100); `next_cursor` continues ' +
            'the same search without repeating or skipping a facility (a cursor edited, or used with other q/filters/sort or after an ' +
            'index reload: 422). CSV or GeoJSON by `Accept` or `format` (the export forms add a `Link: rel="next"` header). A bad ' +
            'parameter is 422 VALIDATION_ERROR and not counted; a valid search counts as one call in any form. Details: docs/search.md.',
          security: [{ apiKey: [] }],
          responses: DOCUMENTED_RESPONSES,
        },
      },
    );
}
