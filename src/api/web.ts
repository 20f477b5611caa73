import { Elysia } from 'elysia';
import type { AppDeps } from './deps';
import { AppError } from '../errors';
import { homePointer } from './http/home';
import { requestContext } from './http/request-context';
import type { WebAsset } from '../web/assets';

/**
 * The page runs only its own bundled script and stylesheet and talks only to this origin: no
 * inline script or style, no CDN, no tile server (docs/web.md). `data:`/`blob:` images are not
 * needed, and downloads are made from blob: URLs, which navigation (not img-src) covers.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const PAGE_HEADERS = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>facility-score</title></head><body>
<h1>facility-score</h1><p>The web page is not built in this checkout. Run <code>npx bun run scripts/build-web.ts</code>
(<code>npm start</code> does it for you), then restart. The API is served as usual: <a href="/swagger">API documentation</a>.</p></body></html>`;

function serve(asset: WebAsset, request: Request): Response {
  const headers: Record<string, string> = {
    ...PAGE_HEADERS,
    'content-type': asset.type,
    etag: asset.etag,
    vary: 'accept-encoding',
    // The page revalidates (a new build must show up at once); hashed assets never change.
    'cache-control': asset.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
  };
  if (request.headers.get('if-none-match') === asset.etag) return new Response(null, { status: 304, headers });
  if (/\bgzip\b/.test(request.headers.get('accept-encoding') ?? '')) {
    headers['content-encoding'] = 'gzip';
    return new Response(asset.gzip, { headers });
  }
  return new Response(asset.body, { headers });
}

/** A program that asks for JSON and not HTML (curl -H 'Accept: application/json', a client library). */
function wantsJson(request: Request): boolean {
  const accept = request.headers.get('accept') ?? '';
  return /\bapplication\/json\b/.test(accept) && !/\btext\/html\b/.test(accept);
}

/**
 * `/` (the page for people; JSON callers get the pointer to the docs instead) and `/assets/*` (its
 * hashed script, stylesheet and icon). Not API: hidden from OpenAPI.
 */
export function webRoutes(deps: AppDeps) {
  const assets = deps.web ?? null;
  const hidden = { detail: { hide: true } };
  return new Elysia({ name: 'web' })
    .use(requestContext)
    .get(
      '/',
      ({ request, facts }) => {
        if (wantsJson(request)) return homePointer(facts, deps.clock);
        const page = assets?.get('/');
        if (!page) return new Response(NOT_BUILT, { headers: { ...PAGE_HEADERS, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } });
        return serve(page, request);
      },
      hidden,
    )
    .get(
      '/assets/:name',
      ({ params, request }) => {
        const asset = assets?.get(`/assets/${params.name}`);
        if (!asset) throw new AppError('NOT_FOUND', `No such page asset: ${params.name}`);
        return serve(asset, request);
      },
      hidden,
    );
}
