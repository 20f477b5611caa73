import { QueryReader } from '../wire/query-params';
import { DEFAULT_ID_PAGE, MAX_ID_PAGE } from './model';

/**
 * The query parameters of the watchlist reads, read strictly (one 422 naming each bad parameter)
 * by the routes' input step: after authentication, before a `/changes` call is counted. Other
 * parameters are ignored, as elsewhere in the API.
 */

export const DEFAULT_DELIVERIES = 100;
export const MAX_DELIVERIES = 500;

/** `since`: a real calendar date; `2026-13-45` or `0000-00-00` is a 422, not "no release after it". */
export function parseChangesQuery(params: URLSearchParams): { since: string | null } {
  const q = new QueryReader(params);
  const since = q.date('since');
  q.done();
  return { since };
}

export function parseDeliveriesQuery(params: URLSearchParams): { limit: number } {
  const q = new QueryReader(params);
  const limit = q.wholeNumber('limit', 1, MAX_DELIVERIES, DEFAULT_DELIVERIES);
  q.done();
  return { limit };
}

/** A page of a list's facilities (`/facilities`): one read of their briefs and one of their history. */
export const MAX_FACILITY_PAGE = 100;

export function parseIdPageQuery(params: URLSearchParams, max = MAX_ID_PAGE): { cursor: string | null; limit: number } {
  const q = new QueryReader(params);
  const cursor = q.matching('cursor', /^[0-9]{1,15}$/, 'the next_cursor of the page before (a registry ID of 1 to 15 digits)');
  const limit = q.wholeNumber('limit', 1, max, Math.min(DEFAULT_ID_PAGE, max));
  q.done();
  return { cursor, limit };
}
