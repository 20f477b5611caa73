import type { CountResult } from '../state/model';

/**
 * Limit headers for any counted window, set on `headers` in place (no intermediate object to copy):
 * the IETF httpapi draft's `RateLimit-Policy` / `RateLimit`, and the common
 * `X-RateLimit-Limit/Remaining/Reset` (reset as epoch seconds).
 */
export function setRateLimitHeaders(headers: Record<string, string>, policy: string, windowSec: number, r: CountResult, now: number): Record<string, string> {
  const remaining = Math.max(0, r.limit - r.used);
  const limit = String(r.limit);
  headers['ratelimit-policy'] = `"${policy}";q=${limit};w=${windowSec}`;
  headers.ratelimit = `"${policy}";r=${remaining};t=${Math.max(0, Math.ceil((r.resetAt - now) / 1000))}`;
  headers['x-ratelimit-limit'] = limit;
  headers['x-ratelimit-remaining'] = String(remaining);
  headers['x-ratelimit-reset'] = String(Math.ceil(r.resetAt / 1000));
  return headers;
}

/** Whole seconds until the window frees a slot, never 0 (every 429 carries Retry-After: docs/api.md, Errors). */
export function retryAfterSeconds(r: CountResult, now: number): number {
  return Math.max(1, Math.ceil((r.resetAt - now) / 1000));
}
