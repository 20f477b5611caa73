import { AppError } from '../errors';
import { namedItems } from '../shared/problems';

/** The fields of a watchlist body (create: name and registry_ids required; change: any, at least one). */
export const WATCHLIST_FIELDS = ['name', 'registry_ids', 'rule', 'webhook_url'] as const;
/** An EPA Registry ID (FRS) is 12 digits: "123" would be a list that silently never matches. */
export const REGISTRY_ID_12 = /^[0-9]{12}$/;

/**
 * What the schema cannot say in one message, checked before it: a field the body does not take is
 * 400 naming them all; a change naming no field is 400 (it would change nothing); IDs that are not
 * 12-digit strings are 422 naming them (the first 20, and how many). Anything else is the schema's.
 */
export function checkWatchlistBody(body: unknown, change: boolean): unknown {
  const b = body as Record<string, unknown>;
  const unknown = Object.keys(b).filter((k) => !(WATCHLIST_FIELDS as readonly string[]).includes(k));
  if (unknown.length > 0) {
    throw new AppError('INVALID_BODY', `unknown ${unknown.length === 1 ? 'field' : 'fields'} ${namedItems(unknown.map((k) => JSON.stringify(k.slice(0, 40))))}; a watchlist takes ${WATCHLIST_FIELDS.join(', ')}`);
  }
  if (change && Object.keys(b).length === 0) throw new AppError('INVALID_BODY', `The body changes nothing: give at least one of ${WATCHLIST_FIELDS.join(', ')}`);
  const ids = b.registry_ids;
  if (Array.isArray(ids)) {
    const bad = ids.flatMap((id, i) => (typeof id === 'string' && REGISTRY_ID_12.test(id) ? [] : [`[${i}] ${JSON.stringify(typeof id === 'string' ? id.slice(0, 20) : id)?.slice(0, 24) ?? String(id)}`]));
    if (bad.length > 0) {
      throw new AppError('VALIDATION_ERROR', `registry_ids must be EPA Registry IDs of 12 digits; ${bad.length.toLocaleString('en-US')} ${bad.length === 1 ? 'is' : 'are'} not: ${namedItems(bad)}`);
    }
  }
  return body;
}
