import { US_STATE_CODES } from '../shared/us-states';
import { AppError } from '../errors';
import { decodeCursor } from './cursor';
import type { SearchRequest } from './request';
import { MAX_QUERY_CHARS, MAX_QUERY_WORDS, queryWords } from './match';

/**
 * Matches counted for a search's `total`: beyond it, counting a 3-letter prefix of a common word
 * would read 10^5 facilities per page, so the answer says `total_capped` instead.
 */
export const TOTAL_CAP = 1000;
export const DEFAULT_SEARCH_LIMIT = 20;
export const MAX_SEARCH_LIMIT = 100;

export type { SearchRequest } from './request';

const WHOLE = /^\d+$/;

function shown(raw: string): string {
  return JSON.stringify(raw.length > 40 ? `${raw.slice(0, 40)}…` : raw);
}

/**
 * Reads the search parameters strictly; every problem is reported at once in one 422
 * VALIDATION_ERROR naming its parameter (the same rules as GET /area: a parameter given twice or
 * empty is refused). `fingerprint` ties a cursor to the index it was made on (see cursor.ts).
 */
export function parseSearchQuery(params: URLSearchParams, fingerprint: string): SearchRequest {
  const problems: string[] = [];
  const one = (name: string): string | null => {
    const all = params.getAll(name);
    if (all.length > 1) problems.push(`${name} was given ${all.length} times; give it once`);
    else if (all.length === 1 && all[0] === '') problems.push(`${name} is empty`);
    else if (all.length === 1) return all[0]!;
    return null;
  };

  const q = one('q');
  let words: string[] = [];
  if (q === null && params.getAll('q').length === 0) problems.push('q is required: words of a facility name, street, city or ZIP');
  else if (q !== null && q.length > MAX_QUERY_CHARS) problems.push(`q must be at most ${MAX_QUERY_CHARS} characters, got ${q.length}`);
  else if (q !== null) {
    words = queryWords(q);
    if (words.length === 0) problems.push(`q must contain at least one letter or digit, got ${shown(q)}`);
    else if (words.length > MAX_QUERY_WORDS) problems.push(`q must have at most ${MAX_QUERY_WORDS} words, got ${words.length}`);
  }

  const rawState = one('state');
  const state = rawState === null ? null : rawState.toUpperCase();
  if (rawState !== null && !US_STATE_CODES.has(state!)) problems.push(`state must be a 2-letter US state or territory code such as TX, got ${shown(rawState)}`);

  const naics = one('naics');
  if (naics !== null && !/^\d{2,6}$/.test(naics)) problems.push(`naics must be 2 to 6 digits (a NAICS code or its prefix), got ${shown(naics)}`);

  const score = (name: string): number | null => {
    const raw = one(name);
    if (raw === null) return null;
    const v = WHOLE.test(raw) ? Number(raw) : NaN;
    if (!(v >= 0 && v <= 100)) {
      problems.push(`${name} must be a whole number from 0 to 100, got ${shown(raw)}`);
      return null;
    }
    return v;
  };
  const minScore = score('min_score');
  const maxScore = score('max_score');
  if (minScore !== null && maxScore !== null && minScore > maxScore) problems.push(`min_score (${minScore}) must not be above max_score (${maxScore})`);

  const rawActive = one('active_enforcement');
  if (rawActive !== null && rawActive !== 'true' && rawActive !== 'false') problems.push(`active_enforcement must be true or false, got ${shown(rawActive)}`);

  const rawSort = one('sort');
  if (rawSort !== null && rawSort !== 'relevance' && rawSort !== 'score') problems.push(`sort must be "relevance" or "score", got ${shown(rawSort)}`);
  const sort = rawSort === 'score' ? 'score' : 'relevance';

  let limit = DEFAULT_SEARCH_LIMIT;
  const rawLimit = one('limit');
  if (rawLimit !== null) {
    limit = WHOLE.test(rawLimit) ? Number(rawLimit) : NaN;
    if (!(limit >= 1 && limit <= MAX_SEARCH_LIMIT)) problems.push(`limit must be a whole number from 1 to ${MAX_SEARCH_LIMIT}, got ${shown(rawLimit)}`);
  }

  const request: SearchRequest = {
    words,
    state,
    naics,
    minScore,
    maxScore,
    activeEnforcement: rawActive === null ? null : rawActive === 'true',
    sort,
    limit,
    after: null,
  };
  const rawCursor = one('cursor');
  if (rawCursor !== null && problems.length === 0) {
    request.after = decodeCursor(rawCursor, request, fingerprint);
    if (!request.after) problems.push('cursor is not valid for this search: pass the next_cursor of the previous page unchanged, with the same q, filters and sort');
  }
  if (problems.length > 0) throw new AppError('VALIDATION_ERROR', problems.join('; '));
  return request;
}
