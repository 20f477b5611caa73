/**
 * The largest body sent plain, with a Content-Length. Bun 1.4.5 writes a body under 15 KiB (15,360
 * bytes, whatever the headers' size) with its headers in one send however late the Response comes;
 * the margin leaves room for that limit to move.
 */
export const PLAIN_BODY_MAX = 12 * 1024;

/**
 * A response body for `bytes` that goes out in one write however late it comes. A counted call
 * answers after the usage ledger's commit, one event-loop turn after the request arrived, and Bun
 * 1.4.5 writes a larger byte or text body that comes that late without corking the
 * socket: one `send` per header fragment (dozens for a PDF attachment's headers), which on loopback
 * made a cached site report take several times a cached dossier. A
 * ReadableStream that already holds the whole body is written corked: one `send` (two past the
 * cork buffer, the second the 5-byte last chunk), about as fast as a same-turn answer. It is framed
 * `Transfer-Encoding: chunked` (Bun drops a Content-Length set on a stream; an HTTP/1.0 client
 * gets the body ended by the close), so a body up to PLAIN_BODY_MAX keeps the plain form. A
 * `type: 'direct'` stream measured the same, so the standard one is used.
 */
export function lateBody<T extends Uint8Array | string>(body: T | readonly Uint8Array[]): T | Uint8Array | ReadableStream<T | Uint8Array> {
  if (Array.isArray(body)) return lateParts(body);
  const one = body as T;
  // a text is at least as many bytes as characters: only a short one needs counting
  const size = typeof one === 'string' ? (one.length > PLAIN_BODY_MAX ? one.length : Buffer.byteLength(one)) : one.length;
  if (size <= PLAIN_BODY_MAX) return one;
  return new ReadableStream<T>({
    start(controller) {
      // Bun takes a string chunk as its UTF-8 (bun.sh/docs/api/streams) and encodes it natively as
      // it writes: cheaper than Buffer.from of a large answer
      controller.enqueue(one);
      controller.close();
    },
  });
}

/**
 * lateBody of a body in parts, sent in order with no copy into one array (a site report's ~700 KB
 * from its worker, then the request's meta): a small body is joined and sent plain.
 */
function lateParts(parts: readonly Uint8Array[]): Uint8Array | ReadableStream<Uint8Array> {
  const size = parts.reduce((n, p) => n + p.length, 0);
  if (size <= PLAIN_BODY_MAX) return Buffer.concat(parts);
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const p of parts) controller.enqueue(p);
      controller.close();
    },
  });
}
