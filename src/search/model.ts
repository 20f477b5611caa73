import { t, type Static } from '../shared/typebox';
import { Envelope } from '../shared/envelope';
import { DataSufficient } from '../scoring/completeness';
import { MAX_QUERY_CHARS, MAX_QUERY_WORDS } from './match';
import { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT, TOTAL_CAP } from './query';

/**
 * The query parameters, for OpenAPI. `parseSearchQuery` (the route's `searchQuery` transform) reads
 * them strictly with messages naming the parameter, so the schema is `noValidate`.
 */
export const SearchQuery = t.Object(
  {
    q: t.String({
      maxLength: MAX_QUERY_CHARS,
      description:
        `Words of a facility name, street, city or ZIP, any order, any case; each word matches as a prefix (\`acme plat elkh\`). ` +
        `Punctuation separates words and is otherwise ignored (quotes and operators are plain text). A query that is one 12-digit registry ID finds that facility first. ` +
        `At most ${MAX_QUERY_CHARS} characters and ${MAX_QUERY_WORDS} words.`,
      examples: ['acme plat elkh'],
    }),
    state: t.Optional(t.String({ pattern: '^[A-Za-z]{2}$', description: 'Only facilities in this US state or territory (USPS code, any case)', examples: ['IN'] })),
    naics: t.Optional(t.String({ pattern: '^[0-9]{2,6}$', description: 'Only facilities whose NAICS code starts with these 2-6 digits', examples: ['3328'] })),
    min_score: t.Optional(t.Integer({ minimum: 0, maximum: 100, description: 'Only overall_score ≥ this' })),
    max_score: t.Optional(t.Integer({ minimum: 0, maximum: 100, description: 'Only overall_score ≤ this' })),
    active_enforcement: t.Optional(t.Boolean({ description: 'true: only facilities with an enforcement action in the last 12 months or a significant violation being addressed (docs/scoring.md); false: only those without' })),
    sort: t.Optional(
      t.Union([t.Literal('relevance'), t.Literal('score')], {
        default: 'relevance',
        description: '`relevance`: best match first (BM25; a word in the name weighs most). `score`: worst compliance (lowest overall_score) first. Ties: registry_id ascending.',
      }),
    ),
    limit: t.Optional(t.Integer({ minimum: 1, maximum: MAX_SEARCH_LIMIT, default: DEFAULT_SEARCH_LIMIT, description: 'Most facilities per page' })),
    cursor: t.Optional(t.String({ description: 'The `next_cursor` of the previous page, unchanged, with the same q, filters and sort' })),
    format: t.Optional(t.Union([t.Literal('json'), t.Literal('csv'), t.Literal('geojson')], { description: 'Response form; overrides Accept' })),
  },
  { noValidate: true },
);

/** An area item without the distance, plus where the facility is. */
export const SearchFacility = t.Object({
  registry_id: t.String({ examples: ['990004433640'] }),
  fac_name: t.String({ examples: ['ACME PLATING INC (FICTITIOUS)'] }),
  overall_score: t.Integer({ minimum: 0, maximum: 100 }),
  active_enforcement: t.Boolean(),
  fac_street: t.String({ examples: ['1200 INDUSTRIAL PKWY'] }),
  fac_city: t.String({ examples: ['ELKHART'] }),
  fac_state: t.String({ examples: ['IN'] }),
  fac_zip: t.String({ examples: ['46514'] }),
  data_sufficient: DataSufficient,
});
export type SearchFacility = Static<typeof SearchFacility>;

export const SearchResult = t.Object({
  facilities: t.Array(SearchFacility),
  total: t.Integer({ minimum: 0, maximum: TOTAL_CAP, description: `How many facilities the search finds over all its pages (the same on each page), counted up to ${TOTAL_CAP}` }),
  total_capped: t.Boolean({ description: `true when more than ${TOTAL_CAP} facilities match: \`total\` is then ${TOTAL_CAP}, a lower bound` }),
  next_cursor: t.Union([t.String(), t.Null()], { description: 'Pass as `cursor` for the next page; null on the last page' }),
});
export type SearchResult = Static<typeof SearchResult>;

export const SearchResponse = Envelope(SearchResult);
