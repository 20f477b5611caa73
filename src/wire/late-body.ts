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
export function lateBody<T extends Uint8Array | string>(body: T): T | ReadableStream<T> {
  // a text is at least as many bytes as characters: only a short one needs counting
  const size = typeof body === 'string' ? (body.length > PLAIN_BODY_MAX ? body.length : Buffer.byteLength(body)) : body.length;
  if (size <= PLAIN_BODY_MAX) return body;
  return new ReadableStream<T>({
    start(controller) {
      // Bun takes a string chunk as its UTF-8 (bun.sh/docs/api/streams) and encodes it natively as
      // it writes: cheaper than Buffer.from of a large answer
      controller.enqueue(body);
      controller.close();
    },
  });
}
