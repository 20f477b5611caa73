import { AppError } from '../errors';
import { retryAfterSeconds, setRateLimitHeaders } from './rate-limit-headers';
import type { StateStore } from '../state/store';
import type { CountResult } from '../state/model';

/** docs/demo.md: 5 demo requests per IP per rolling hour. */
export const DEMO_LIMIT = 5;
export const DEMO_WINDOW_MS = 60 * 60 * 1000;

/** The limit headers of the demo's rolling hour, set on `headers` (a new object when none is given). */
export function demoLimitHeaders(r: CountResult, now: number, headers: Record<string, string> = {}): Record<string, string> {
  return setRateLimitHeaders(headers, 'demo', DEMO_WINDOW_MS / 1000, r, now);
}

/**
 * Counts one demo request of `bucket` and sets the limit headers on `headers` (the response's, in
 * place); throws 429 with `Retry-After` (whole seconds until the oldest of the last 5 requests
 * leaves the window, at least 1) when the 6th arrives within an hour, leaving `headers` untouched
 * (the error carries its own). A refused request is not recorded, so hammering does not push the
 * reset further away.
 */
export async function countDemoRequest(store: StateStore, bucket: string, now: number, headers: Record<string, string> = {}): Promise<Record<string, string>> {
  const r = await store.hitWindow(`demo:${bucket}`, DEMO_LIMIT, DEMO_WINDOW_MS, now);
  if (r.allowed) return demoLimitHeaders(r, now, headers);
  const retryAfter = retryAfterSeconds(r, now);
  throw new AppError(
    'RATE_LIMIT_EXCEEDED',
    `The public demo allows ${DEMO_LIMIT} lookups per IP address per hour; try again in ${retryAfter} seconds, or use an API key`,
    { ...demoLimitHeaders(r, now), 'retry-after': String(retryAfter) },
  );
}
