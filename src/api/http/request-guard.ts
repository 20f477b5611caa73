import { Elysia } from 'elysia';
import { AppError } from '../../errors';
import { requestContext } from './request-context';

/**
 * The largest request body the server takes (docs/api.md, "Requests refused before any route").
 * Each route that reads a body caps it lower (64 KiB, a watchlist 512 KiB); this bound is for
 * a declared length, refused before a byte is read, on any route.
 */
export const MAX_REQUEST_BODY_BYTES = 1024 * 1024;

const TOO_LARGE = `The request body is over ${MAX_REQUEST_BODY_BYTES} bytes (1 MiB); no request body of this API needs more than 512 KiB`;

/** Whether `url` (Bun's reading of the request target and Host) is a URL our routes can read. */
function isHttpUrl(url: string): boolean {
  return (url.startsWith('http://') || url.startsWith('https://')) && URL.canParse(url);
}

/**
 * A request target that is not a path here, refused in the envelope before any other hook reads
 * the URL: `CONNECT host:port`, or a Host header that is no host name (Bun hands both on as a URL
 * that does not parse; before this check they drew Bun's HTML error page). Registered before CORS.
 */
export const targetGuard = new Elysia({ name: 'target-guard' }).use(requestContext).onRequest(({ request }) => {
  if (isHttpUrl(request.url)) return;
  if (request.method === 'CONNECT') throw new AppError('METHOD_NOT_ALLOWED', 'CONNECT is not allowed: this server is not a proxy', { allow: '' });
  throw new AppError('INVALID_REQUEST', 'The request target and Host header do not form a URL: send a path such as /api/v1/status and a valid Host');
});

/**
 * A declared body over MAX_REQUEST_BODY_BYTES, refused in the envelope before a byte is read (Bun's
 * own limit answered a bare 413). Registered after CORS, so a browser can read the answer. A
 * chunked body has no declared length: the routes that read one stop at their own cap.
 */
export const bodySizeGuard = new Elysia({ name: 'body-size-guard' }).use(requestContext).onRequest(({ request }) => {
  const declared = request.headers.get('content-length');
  // The body is never read: closing the connection spares both sides the rest of it.
  if (declared !== null && Number(declared) > MAX_REQUEST_BODY_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', TOO_LARGE, { connection: 'close' });
});
