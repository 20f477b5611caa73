type Set = { headers: Record<string, unknown> };

/**
 * The largest PDF sent as a plain body, with a Content-Length. Bun 1.4.5 writes a body under
 * 15 KiB together with its headers in one send whenever the Response is produced; the margin
 * leaves room for that limit to move. A dossier (~7.5 KB) stays under it, a site report (15 KB
 * and up) goes over.
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
 * cached dossier. A ReadableStream that already holds the whole PDF leaves in one `send` (plus
 * the 5-byte last chunk) but is framed `Transfer-Encoding: chunked`, since Bun drops a
 * Content-Length set on a stream; so a PDF under PLAIN_BODY_MAX keeps the plain body.
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
