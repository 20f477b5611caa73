import { FORMATS } from '../../exports/format';
import { lateBody } from '../../wire/late-body';

type Set = { headers: Record<string, unknown> };

/**
 * A 200 PDF attachment: `application/pdf`, `Content-Disposition`, `X-Cache`, `Cache-Control:
 * private, no-store`, with the headers set on the context so far (request id, CORS, quota) moved
 * into it, as `jsonResponse` does, so Elysia returns it as is.
 *
 * A dossier (small) goes as a plain body, a site report (larger) in one chunk (src/wire/late-body.ts says why).
 */
export function pdfResponse(pdf: Uint8Array, file: { name: string; cache: string }, set: Set): Response {
  const headers = set.headers as Record<string, string>;
  set.headers = {};
  headers['content-type'] = FORMATS.pdf.contentType;
  headers['content-disposition'] = `attachment; filename="${file.name}"`;
  headers['x-cache'] = file.cache;
  headers['cache-control'] = 'private, no-store';
  return new Response(lateBody(pdf), { headers });
}

