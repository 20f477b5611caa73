import { Elysia } from 'elysia';
import type { AppDeps } from '../deps';
import { requestContext } from './request-context';

/** Public endpoints: any page may read them (no credentials involved). */
const PUBLIC_PATHS = new Set(['/api/v1/demo/facility', '/api/v1/status', '/swagger/json']);

// What a cross-origin script may send and read. Keyed routes also take the credentials headers.
const PUBLIC_REQUEST_HEADERS = 'Content-Type, X-Request-Id';
const KEYED_REQUEST_HEADERS = 'Content-Type, X-Request-Id, X-API-Key, Authorization';
const EXPOSED = 'X-Request-Id, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, RateLimit, RateLimit-Policy, Content-Disposition';
const METHODS = 'GET, POST, OPTIONS';
const PREFLIGHT_MAX_AGE = '600';

type Headers = Record<string, string>;

function trimSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/** The CORS headers for `origin` on `path`, or null when that origin may not read it. */
export function corsHeadersFor(path: string, origin: string, allowed: ReadonlySet<string>): Headers | null {
  if (PUBLIC_PATHS.has(trimSlash(path))) {
    return { 'access-control-allow-origin': '*', 'access-control-expose-headers': EXPOSED };
  }
  if (!allowed.has(origin)) return null;
  // Keyed answers differ by origin, so a shared cache must key on it.
  return { 'access-control-allow-origin': origin, 'access-control-expose-headers': EXPOSED, vary: 'Origin' };
}

/**
 * CORS (docs/api.md): the public demo and status answer any origin; keyed and account endpoints only
 * the origins of `--cors-origins` (none by default). A preflight (OPTIONS with
 * Access-Control-Request-Method) is answered here with 204 and never reaches a route or the quota.
 */
export function cors(deps: AppDeps) {
  const allowed = new Set(deps.config.corsOrigins);
  return new Elysia({ name: 'cors' }).use(requestContext).onRequest(({ request, set, facts }) => {
    const origin = request.headers.get('origin');
    if (origin === null) return;
    const path = new URL(request.url).pathname;
    const headers = corsHeadersFor(path, origin, allowed);
    if (request.method === 'OPTIONS' && request.headers.has('access-control-request-method')) {
      const reply: Headers = { 'x-request-id': facts.id, vary: 'Origin' };
      if (headers) {
        Object.assign(reply, headers, {
          'access-control-allow-methods': METHODS,
          'access-control-allow-headers': PUBLIC_PATHS.has(trimSlash(path)) ? PUBLIC_REQUEST_HEADERS : KEYED_REQUEST_HEADERS,
          'access-control-max-age': PREFLIGHT_MAX_AGE,
        });
      }
      // An origin that is not allowed gets a 204 without Allow-Origin: the browser then refuses the call.
      return new Response(null, { status: 204, headers: reply });
    }
    if (headers) Object.assign(set.headers, headers);
  });
}
