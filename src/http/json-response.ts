/** The media type Elysia gives a returned object (Bun's Response.json), kept for bodies written as text. */
export const JSON_MEDIA_TYPE = 'application/json;charset=utf-8';

type Set = { headers: Record<string, unknown> };

/**
 * A 200 whose JSON body is already text (e.g. src/facilities/record-json.ts). A returned Response
 * skips Elysia's response normaliser. The headers set on the context so far (request id, CORS,
 * quota) go into it and `set.headers` is emptied: Elysia would otherwise copy the Response into a
 * second one with merged headers and a streamed body, which cost more than the normaliser saved.
 * The route keeps its `response` schema, so the OpenAPI document and Eden's types do not change.
 */
export function jsonResponse(body: string, set: Set): Response {
  const headers = set.headers;
  headers['content-type'] = JSON_MEDIA_TYPE;
  set.headers = {};
  return new Response(body, { headers: headers as Record<string, string> });
}
