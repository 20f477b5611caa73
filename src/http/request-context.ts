import { Elysia } from 'elysia';
import type { Meta } from './envelope';

/** Per-request facts every response needs; kept outside Elysia's context so that error paths
 * (unknown routes, parse failures) that run before `derive` still see them. */
type RequestFacts = {
  id: string;
  startedAt: number;
  /** Set by auth: who called, for access logs and refunds. */
  accountId?: string;
  tier?: string;
  /** True once a call was counted against the monthly quota (so a 5xx can give it back). */
  counted?: boolean;
  status?: number;
  errorCode?: string;
};

const facts = new WeakMap<Request, RequestFacts>();
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** `req_` + 20 Crockford base-32 characters (100 random bits): unguessable, URL- and log-safe. */
export function newRequestId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(20));
  let s = 'req_';
  for (const b of bytes) s += ALPHABET[b & 31];
  return s;
}

export function factsOf(request: Request): RequestFacts {
  let f = facts.get(request);
  if (!f) {
    f = { id: newRequestId(), startedAt: performance.now() };
    facts.set(request, f);
  }
  return f;
}

/** Builds spec 2.1 `meta` for this request, timing from its first sight. */
export function metaFor(request: Request, now: () => number): Meta {
  const f = factsOf(request);
  return {
    request_id: f.id,
    timestamp: new Date(now()).toISOString(),
    response_time_ms: Math.max(0, Math.round(performance.now() - f.startedAt)),
  };
}

/** Assigns the request id and start time first thing, and echoes the id as `X-Request-Id`. */
export const requestContext = new Elysia({ name: 'request-context' }).onRequest(({ request, set }) => {
  set.headers['x-request-id'] = factsOf(request).id;
});
