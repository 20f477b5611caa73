import { AppError } from '../../errors';
import { withVary } from './compression';
import type { IndexInfo } from '../../index/model';
import { indexIdentity } from '../../index/identity';
import { VERSION } from '../../version';
import { TIER_RULES, type Tier } from '../../tiers';

type Set = { headers: Record<string, unknown> };

/**
 * What every ETag of an answer read from the index starts with: this build of the service and the
 * index release it serves (its identity, src/index/identity.ts). A new release, or a new version
 * whose answers could read differently, changes every such ETag.
 */
export function releaseTag(info: IndexInfo): string {
  return Bun.hash.xxHash3(`${VERSION}\n${indexIdentity(info)}`).toString(36);
}

/**
 * A weak ETag (RFC 9110 8.8.1) of `parts`. Weak because two answers with one ETag are the same data,
 * not the same bytes: `meta` (request id, timestamp) differs in every answer, a re-rendered PDF
 * carries a new stamp, and the gzip and identity forms share the tag.
 */
export function weakTag(...parts: string[]): string {
  return `W/"${parts.join('.')}"`;
}

/** A short tag of a long value (a request's URL and form), for weakTag. */
export function digestOf(value: string): string {
  return Bun.hash.xxHash3(value).toString(36);
}

/**
 * The ETag of a list answer read from the index alone (area, search): the release, and a digest of
 * the request URL, the form it is answered in and the caller's view (full or redacted).
 */
export function listTag(release: string, request: Request, format: string, tier: Tier): string {
  const view = TIER_RULES[tier].fullComponents ? 'full' : 'redacted';
  const url = request.url;
  // the path and query: the same answer whatever host name the client used
  const target = url.slice(url.indexOf('/', url.indexOf('//') + 2));
  return weakTag(release, digestOf(`${target}\n${format}\n${view}`));
}

/** If-None-Match against `etag`: `*` or any listed tag that matches by the weak comparison (RFC 9110 13.1.2). */
export function noneMatchHits(header: string | null, etag: string): boolean {
  if (header === null) return false;
  if (header.trim() === '*') return true;
  const opaque = etag.startsWith('W/') ? etag.slice(2) : etag;
  for (const candidate of header.split(',')) {
    const tag = candidate.trim();
    if ((tag.startsWith('W/') ? tag.slice(2) : tag) === opaque) return true;
  }
  return false;
}

/** Keyed answers are the caller's own: no shared cache may keep one, and a client revalidates it before reuse. */
export const KEYED_CACHE_CONTROL = 'private, no-cache';

/**
 * A GET answer's validator: with an If-None-Match that matches `etag`, the 304 Not Modified to return
 * (no body; the ETag, Cache-Control and the headers set so far: request id, quota, Vary); otherwise
 * null, with ETag and Cache-Control set for the 200. `vary` names what else the 200 may vary on, for the 304.
 */
export function notModified(request: Request, etag: string, set: Set, vary?: string): Response | null {
  const headers = set.headers as Record<string, string>;
  headers.etag = etag;
  headers['cache-control'] = KEYED_CACHE_CONTROL;
  if (!noneMatchHits(request.headers.get('if-none-match'), etag)) return null;
  set.headers = {};
  if (vary !== undefined) for (const name of vary.split(', ')) headers.vary = withVary(headers.vary, name);
  return new Response(null, { status: 304, headers });
}

/**
 * The same validator on a POST that answers a document (the PDF routes): a matching If-None-Match
 * means the caller holds the current document, and RFC 9110 13.1.2 says a method other than GET or
 * HEAD must then not be performed: 412 PRECONDITION_FAILED. Otherwise the ETag goes on the answer.
 */
export function refuseIfUnchanged(request: Request, etag: string, set: Set): void {
  if (noneMatchHits(request.headers.get('if-none-match'), etag)) {
    throw new AppError('PRECONDITION_FAILED', 'If-None-Match matches the current document (its ETag); it has not changed, so it is not sent again', { etag });
  }
  set.headers.etag = etag;
}
