import { Elysia } from 'elysia';
import type { AppDeps } from './deps';
import { apiKeyAuth, apiKeyErrors, type ApiKeyRoute } from './http/api-key-auth';
import { AppError } from '../errors';
import { exportableInput } from './http/exportable';
import { listResponses } from '../exports/response';
import { answerIn } from './http/answer-in';
import { bulkyJsonResponse } from './http/json-response';
import { datasetMeta } from '../shared/envelope';
import { metaFor } from './http/request-context';
import type { FacilitySearch } from '../search/facility-search';
import { SearchFacility, SearchQuery, SearchResponse } from '../search/model';
import { parseSearchQuery } from '../search/query';
import { searchFacilities } from '../search/service';
import { listTag, notModified, releaseTag } from './http/conditional';

/** `GET /api/v1/search`: facilities by words of their name, street, city or ZIP (docs/search.md). */
export function searchRoutes(deps: AppDeps, search: FacilitySearch | null) {
  // null when the index's search tables are missing (src/index/search-tables/file.ts): every search is then a 503.
  // The query is read strictly (422 naming each bad parameter; a cursor is checked against this
  // index) by the pipeline's input step: after authentication, before counting.
  const SEARCH_QUERY = exportableInput(['VALIDATION_ERROR'], ({ request }) => {
    if (!search) throw new AppError('SERVICE_UNAVAILABLE', 'Search is not available on this index: its search tables are missing or belong to another build; rebuild it with `ingest`');
    return parseSearchQuery(new URL(request.url).searchParams, search.fingerprint);
  });
  const SEARCH: ApiKeyRoute = { endpoint: 'search', input: SEARCH_QUERY };
  const ERRORS = apiKeyErrors(SEARCH);
  const release = releaseTag(deps.index.info);
  const dataset = datasetMeta(deps.index.info);
  return new Elysia({ name: 'search-routes' })
    .use(apiKeyAuth(deps))
    .get(
      '/api/v1/search',
      ({ input, facts, request, set, caller }) => {
        const { value: r, format } = SEARCH_QUERY.from(input);
        const unchanged = notModified(request, listTag(release, request, format, caller.tier), set, 'Accept, Origin, Accept-Encoding');
        if (unchanged) return unchanged;
        const { result, locations } = searchFacilities(search!, r);
        return answerIn(format, set, {
          envelope: () => bulkyJsonResponse({ data: result, meta: metaFor(facts, deps.clock, dataset) }, set),
          list: () => {
            const headers: Record<string, string> = {};
            if (result.next_cursor) {
              const next = new URL(request.url);
              next.searchParams.set('cursor', result.next_cursor);
              headers.link = `<${next.pathname}${next.search}>; rel="next"`;
            }
            const name = `search-${r.words.join('-')}`.slice(0, 60);
            return { name, items: result.facilities, locations, columns: Object.keys(SearchFacility.properties), dataset, headers };
          },
        });
      },
      {
        apiKey: SEARCH,
        query: SearchQuery,
        response: { 200: SearchResponse, ...ERRORS },
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
            'parameter is 422 VALIDATION_ERROR and not counted; a valid search counts as one call in any form. 503 on an index built ' +
            'before search existed. Details: docs/search.md.',
          security: [{ apiKey: [] }],
          'x-conditional': true,
          responses: listResponses(SearchResponse, 'One page of matching facilities', ERRORS, {
            Link: { description: 'CSV and GeoJSON only, when another page follows: `<path?...&cursor=...>; rel="next"` (the JSON form has `next_cursor`)', schema: { type: 'string' } },
          }),
        },
      },
    );
}
