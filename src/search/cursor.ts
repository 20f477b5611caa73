import { sha256Hex } from '../hash';
import type { CursorKey, SearchRequest } from './request';

export type { CursorKey } from './request';

/** What a cursor belongs to: the words, filters and sort (not the limit: the page size may change between pages). */
function identity(r: SearchRequest): string {
  return JSON.stringify([r.words, r.state, r.naics, r.minScore, r.maxScore, r.activeEnforcement, r.sort]);
}

function seal(key: CursorKey, r: SearchRequest, fingerprint: string): string {
  return sha256Hex(`${fingerprint}\n${identity(r)}\n${key.value}\n${key.registryId}`).slice(0, 24);
}

/**
 * An opaque cursor: base64url of `[value, registry_id, seal]`. The seal (a SHA-256 over the key, the
 * search and the index fingerprint) makes an edited cursor, one from another search or one from
 * before an index reload a 422 instead of a silently wrong page. It is a checksum, not a secret:
 * a cursor grants nothing, it only says where a page starts.
 */
export function encodeCursor(key: CursorKey, r: SearchRequest, fingerprint: string): string {
  return Buffer.from(JSON.stringify([key.value, key.registryId, seal(key, r, fingerprint)])).toString('base64url');
}

/** The key in `cursor`, or null when it is malformed or was not made for this search on this index. */
export function decodeCursor(cursor: string, r: SearchRequest, fingerprint: string): CursorKey | null {
  if (cursor.length > 200 || !/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(parts) || parts.length !== 3) return null;
  const [value, registryId, sealed] = parts as unknown[];
  if (typeof value !== 'number' || !Number.isFinite(value) || typeof registryId !== 'string' || typeof sealed !== 'string') return null;
  const key = { value, registryId };
  return sealed === seal(key, r, fingerprint) ? key : null;
}
