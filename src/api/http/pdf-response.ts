type Set = { headers: Record<string, unknown> };

/**
 * The largest PDF sent as a plain body, with a Content-Length. Bun 1.4.5 writes a body under
 * 15 KiB (15,360 bytes, whatever the headers' size) with its headers in one send however late the
 * Response comes; the margin leaves room for that limit to move. A dossier (~7.5 KB) stays under
 * it, a site report (15 KB and up) goes over.
 */
export const PLAIN_BODY_MAX = 12 * 1024;

/**
 * A 200 PDF attachment: `application/pdf`, `Content-Disposition`, `X-Cache`, `Cache-Control:
 * private, no-store`, with the headers set on the context so far (request id, CORS, quota) moved
 * into it, as `jsonResponse` does, so Elysia returns it as is.
 *
 * Why a large PDF goes as a one-chunk stream: a counted call answers after the usage ledger's
 * commit, one event-loop turn after the request arrived, and Bun 1.4.5 writes a byte body of
 * 15 KiB or more that comes that late without corking the socket: one `send` per header fragment
 * (~55 for these responses), which on loopback made a cached 16 KB site report take ~2.5x a
 * cached dossier. A ReadableStream that already holds the whole PDF is written corked: one `send`
 * (two past the cork buffer, the second the 5-byte last chunk), about as fast as a same-turn
 * answer. It is framed `Transfer-Encoding: chunked` (Bun drops a Content-Length set on a stream;
 * an HTTP/1.0 client gets the body ended by the close), so a PDF up to PLAIN_BODY_MAX keeps the
 * plain body. A `type: 'direct'` stream measured the same, so the standard one is used.
 */
export function pdfResponse(pdf: Uint8Array, file: { name: string; cache: string }, set: Set): Response {
  const headers = set.headers as Record<string, string>;
  set.headers = {};
  headers['content-type'] = 'application/pdf';
  headers['content-disposition'] = `attachment; filename="${file.name}"`;
  headers['x-cache'] = file.cache;
  headers['cache-control'] = 'private, no-store';
  return new Response(pdf.length <= PLAIN_BODY_MAX ? pdf : oneChunk(pdf), { headers });
}

function oneChunk(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}
