import { Elysia } from 'elysia';
import { lateBody } from '../../wire/late-body';

/** The answers worth compressing: JSON, CSV and GeoJSON. A PDF is deflated inside already. */
const COMPRESSIBLE = /^(?:application\/(?:json|geo\+json)|text\/csv)\b/i;

/**
 * Whether an `Accept-Encoding` value accepts gzip (RFC 9110 12.5.3): `gzip` (or `x-gzip`) with a
 * q-value above 0, or else `*` with one. Absent or empty: identity only.
 */
export function acceptsGzip(header: string | null): boolean {
  if (header === null || header === '') return false;
  let gzip: boolean | undefined;
  let star = false;
  for (const part of header.toLowerCase().split(',')) {
    const [name = '', ...params] = part.split(';').map((s) => s.trim());
    const q = params.find((p) => p.startsWith('q='));
    const accepted = q === undefined || Number(q.slice(2)) > 0;
    if (name === 'gzip' || name === 'x-gzip') gzip = accepted;
    else if (name === '*') star = accepted;
  }
  return gzip ?? star;
}

/** `vary` with `token` added once (a Vary already naming it, or `*`, is kept as is). */
export function withVary(vary: string | null | undefined, token: string): string {
  if (!vary) return token;
  const names = vary.toLowerCase().split(',').map((s) => s.trim());
  return names.includes(token.toLowerCase()) || names.includes('*') ? vary : `${vary}, ${token}`;
}

type Set = { headers: Record<string, unknown>; status?: number | string };

function gzipped(body: Uint8Array<ArrayBuffer> | string, status: number, headers: Headers | Record<string, string>): Response {
  const out = new Headers(headers);
  out.set('content-encoding', 'gzip');
  out.delete('content-length');
  return new Response(lateBody(Bun.gzipSync(body, { level: GZIP_LEVEL })), { status, headers: out });
}

/** zlib's default level (6) was barely smaller than this one on a site report and markedly slower (docs/benchmarks.md, Compression). */
const GZIP_LEVEL = 4;

/** A returned Response: Vary always, and the body compressed when the client accepts gzip and it is at least `minBytes`. */
function compressResponse(res: Response, request: Request, minBytes: number): Response | Promise<Response> {
  const headers = res.headers;
  const type = headers.get('content-type');
  if (type === null || !COMPRESSIBLE.test(type) || headers.has('content-encoding') || res.status === 204 || res.status === 304) return res;
  headers.set('vary', withVary(headers.get('vary'), 'Accept-Encoding'));
  if (!acceptsGzip(request.headers.get('accept-encoding'))) return res;
  return res.arrayBuffer().then((buffer) => {
    const bytes = new Uint8Array(buffer);
    return bytes.length < minBytes ? new Response(lateBody(bytes), { status: res.status, headers }) : gzipped(bytes, res.status, headers);
  });
}

/** An answer Elysia would write as JSON (an envelope object, the error handler's included). */
function compressObject(value: object, request: Request, set: Set, minBytes: number): object {
  set.headers.vary = withVary(set.headers.vary as string | undefined, 'Accept-Encoding');
  if (!acceptsGzip(request.headers.get('accept-encoding'))) return value;
  const json = JSON.stringify(value);
  // a short answer is left to Elysia, which writes the same bytes
  if (json.length < minBytes && Buffer.byteLength(json) < minBytes) return value;
  const headers = set.headers as Record<string, string>;
  set.headers = {};
  headers['content-type'] ??= 'application/json;charset=utf-8';
  return gzipped(json, typeof set.status === 'number' ? set.status : 200, headers);
}

/**
 * Compression of the JSON, CSV and GeoJSON answers, in one place (docs/api.md, "Compression"): every
 * such answer of a route registered after this plugin carries `Vary: Accept-Encoding`; one of at
 * least `minBytes` goes out gzip-compressed to a client whose `Accept-Encoding` takes gzip. Runs on the
 * finished answer (a Response a route built, or the object Elysia would write), so routes know
 * nothing of it. A route registered before it (the single-facility lookups, always small) pays
 * nothing: Elysia applies a hook only to the routes added after it.
 */
export function compression(minBytes: number) {
  // The hook hands back the answer it was given when it changes nothing: on the error path Elysia
  // 1.4 sends whatever a mapResponse hook returns, so `undefined` would be an empty body.
  // (typed as a Response: Elysia's type of a mapResponse hook does not admit handing a value back)
  return new Elysia({ name: 'compression' }).mapResponse({ as: 'global' }, ({ request, responseValue, set }): Response | Promise<Response> => {
    if (request.method === 'HEAD') return responseValue as Response;
    if (responseValue instanceof Response) return compressResponse(responseValue, request, minBytes);
    if (responseValue !== null && typeof responseValue === 'object' && (responseValue.constructor === Object || Array.isArray(responseValue))) {
      return compressObject(responseValue, request, set as Set, minBytes) as Response;
    }
    return responseValue as Response;
  });
}
