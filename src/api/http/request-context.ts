import { Elysia } from 'elysia';
import type { Tier } from '../../tiers';
import type { DatasetMeta, Meta } from '../../shared/envelope';

/**
 * Per-request facts every response needs, on Elysia's context as `facts`. Set in `onRequest`, the
 * first hook, so the error paths that run before any route hook (unknown routes, parse failures),
 * the error handler and the access log all see the same object.
 */
export type RequestFacts = {
  id: string;
  startedAt: number;
  /** Set by auth: who called, for access logs and refunds. */
  accountId?: string;
  tier?: Tier;
  /** True once a call was counted against the monthly quota (so a 5xx can give it back). */
  counted?: boolean;
  status?: number;
  errorCode?: string;
  /** Set by the report route: the PDF cache's outcome (HIT, MISS, BYPASS), for the access log and metrics. */
  cache?: string;
};

const ALPHABET = Uint8Array.from('0123456789ABCDEFGHJKMNPQRSTVWXYZ', (c) => c.charCodeAt(0));

// Random bytes are drawn 512 ids at a time: one getRandomValues call per id was a visible share
// of a lookup's CPU. Ids stay unpredictable (100 random bits each); only the syscall is amortised.
// The id is written as bytes and decoded once, giving one flat string instead of 20 appends.
const ID_CHARS = 20;
const pool = new Uint8Array(ID_CHARS * 512);
let poolOffset = pool.length;
const idBytes = Uint8Array.from('req_' + '0'.repeat(ID_CHARS), (c) => c.charCodeAt(0));
const latin1 = new TextDecoder('latin1');

/** `req_` + 20 Crockford base-32 characters (100 random bits): unguessable, URL- and log-safe. */
export function newRequestId(): string {
  if (poolOffset + ID_CHARS > pool.length) {
    crypto.getRandomValues(pool);
    poolOffset = 0;
  }
  for (let i = 0; i < ID_CHARS; i++) idBytes[4 + i] = ALPHABET[pool[poolOffset + i]! & 31]!;
  poolOffset += ID_CHARS;
  return latin1.decode(idBytes);
}

let lastStampMs = Number.NaN;
let lastStamp = '';

/** ISO-8601 UTC of an epoch-ms instant, formatted once per millisecond however many responses share it. */
function isoTimestamp(ms: number): string {
  if (ms !== lastStampMs) {
    lastStampMs = ms;
    lastStamp = new Date(ms).toISOString();
  }
  return lastStamp;
}

/** A caller's own `X-Request-Id` is kept when it is short and log-safe; anything else is replaced. */
const INBOUND_ID = /^[A-Za-z0-9._-]{1,64}$/;

function requestIdOf(request: Request): string {
  const inbound = request.headers.get('x-request-id');
  return inbound !== null && INBOUND_ID.test(inbound) ? inbound : newRequestId();
}

/**
 * Builds the envelope's `meta` (docs/api.md, Envelope) for the request of `f`, timing from its first
 * sight; a data answer names its dataset (`datasetMeta`).
 */
export function metaFor(f: RequestFacts, now: () => number, dataset?: DatasetMeta): Meta {
  const request_id = f.id;
  const timestamp = isoTimestamp(now());
  const response_time_ms = Math.max(0, Math.round(performance.now() - f.startedAt));
  return dataset ? { request_id, timestamp, response_time_ms, dataset } : { request_id, timestamp, response_time_ms };
}

/**
 * Assigns the request id (the caller's well-formed `X-Request-Id`, else a new one) and start time
 * first thing, and echoes the id as `X-Request-Id`. Plugins
 * and routes that read `facts` `.use` this (named, so it is applied once) to get the type.
 */
export const requestContext = new Elysia({ name: 'request-context' })
  // The type of the per-request value; every request gets its own object in onRequest.
  .decorate('facts', undefined as unknown as RequestFacts)
  .onRequest((ctx) => {
    const facts: RequestFacts = { id: requestIdOf(ctx.request), startedAt: performance.now() };
    ctx.facts = facts;
    ctx.set.headers['x-request-id'] = facts.id;
  });
