/** The media type Elysia gives a returned object (Bun's Response.json), kept for bodies written as text. */
export const JSON_MEDIA_TYPE = 'application/json;charset=utf-8';

/**
 * A 200 whose JSON body is already text (e.g. src/facilities/record-json.ts). A returned Response
 * skips Elysia's response normaliser; Elysia still merges the headers set on the context (request
 * id, CORS, quota) into it, and the access log reads its status. The route keeps its `response`
 * schema, so the OpenAPI document and Eden's types do not change.
 */
export function jsonResponse(body: string): Response {
  return new Response(body, { headers: { 'content-type': JSON_MEDIA_TYPE } });
}
