import { Elysia } from 'elysia';
import type { AppDeps } from '../deps';
import { requestContext } from './request-context';

/** Public endpoints: any page may read them (no credentials involved). */
const PUBLIC_PATHS = new Set(['/api/v1/demo/facility', '/api/v1/demo/examples', '/api/v1/status', '/swagger/json']);

// What a cross-origin script may send and read. Keyed routes also take the credentials headers.
const PUBLIC_REQUEST_HEADERS = 'Content-Type, X-Request-Id';
const KEYED_REQUEST_HEADERS = 'Content-Type, X-Request-Id, X-API-Key, Authorization, If-None-Match';
const EXPOSED =
  'X-Request-Id, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, RateLimit, RateLimit-Policy, Content-Disposition, ' +
  'X-Total-Count, X-Truncated, X-Not-Found-Count, Link, ETag';
// Every method a keyed route answers (watchlists are changed with PATCH and deleted with DELETE);
// test/http/cors.test.ts preflights each route of the app with its own method.
const KEYED_METHODS = 'GET, POST, PATCH, DELETE, OPTIONS';
const PUBLIC_METHODS = 'GET, OPTIONS';
const PREFLIGHT_MAX_AGE = '600';

type Headers = Record<string, string>;

function trimSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/**
 * The CORS headers for `origin` on `path`. A keyed answer differs by origin (Allow-Origin for an
 * allowed one, none for another), so every keyed answer carries `Vary: Origin`, whoever asked: a
 * shared cache must not hand one origin's answer to another.
 */
export function corsHeadersFor(path: string, origin: string, allowed: ReadonlySet<string>): Headers {
  if (PUBLIC_PATHS.has(trimSlash(path))) {
    return { 'access-control-allow-origin': '*', 'access-control-expose-headers': EXPOSED };
  }
  if (!allowed.has(origin)) return { vary: 'Origin' };
  return { 'access-control-allow-origin': origin, 'access-control-expose-headers': EXPOSED, vary: 'Origin' };
}

/**
 * Written here, not with @elysiajs/cors: that plugin applies one policy to every path (it cannot
 * answer public paths with `*` and keyed ones by allow-list), adds its allow/expose headers to every
 * answer, sets `Vary: *` for any origin, and answers preflights as a route, without a request id.
 *
 * CORS (docs/api.md): the public demo and status answer any origin; keyed and account endpoints only
 * the origins of `--cors-origins` (none by default). A preflight (OPTIONS with
 * Access-Control-Request-Method) is answered here with 204 and never reaches a route or the quota.
 */
export function cors(deps: AppDeps) {
  const allowed = new Set(deps.config.corsOrigins);
  // With no origin configured, no keyed answer depends on the origin: nothing to vary on.
  const varies = allowed.size > 0;
  return new Elysia({ name: 'cors' }).use(requestContext).onRequest(({ request, set, facts }) => {
    const origin = request.headers.get('origin');
    if (origin === null) {
      // The no-origin answer (no Allow-Origin) must not be served from a cache to an allowed origin.
      // Without configured origins nothing varies: the URL is not even parsed (most API calls come here).
      if (!varies) return;
      const path = new URL(request.url).pathname;
      if (path.startsWith('/api/') && !PUBLIC_PATHS.has(trimSlash(path))) set.headers.vary = 'Origin';
      return;
    }
    const path = new URL(request.url).pathname;
    const headers = corsHeadersFor(path, origin, allowed);
    if (request.method === 'OPTIONS' && request.headers.has('access-control-request-method')) {
      const reply: Headers = { 'x-request-id': facts.id, vary: 'Origin' };
      if (headers['access-control-allow-origin']) {
        const isPublic = PUBLIC_PATHS.has(trimSlash(path));
        Object.assign(reply, headers, {
          'access-control-allow-methods': isPublic ? PUBLIC_METHODS : KEYED_METHODS,
          'access-control-allow-headers': isPublic ? PUBLIC_REQUEST_HEADERS : KEYED_REQUEST_HEADERS,
          'access-control-max-age': PREFLIGHT_MAX_AGE,
        });
      }
      // An origin that is not allowed gets a 204 without Allow-Origin: the browser then refuses the call.
      return new Response(null, { status: 204, headers: reply });
    }
    Object.assign(set.headers, headers);
  });
}
