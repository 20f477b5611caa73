import { lateBody } from '../../wire/late-body';

type Set = { headers: Record<string, unknown>; status?: number | string };

/**
 * A 200 JSON response built here rather than by Elysia: a returned Response skips Elysia's response
 * normaliser. Bun's `Response.json` writes the same bytes and content type Elysia would (keys in
 * the object's order: build it in schema order). The headers set on the context so far (request
 * id, CORS, quota) go into it and `set.headers` is emptied: Elysia would otherwise copy the Response
 * into a second one with merged headers and a streamed body, which cost more than the normaliser.
 * The route keeps its `response` schema, so the OpenAPI document and Eden's types do not change.
 */
export function jsonResponse(body: unknown, set: Set): Response {
  const headers = set.headers;
  set.headers = {};
  return Response.json(body, { headers: headers as Record<string, string> });
}

/**
 * jsonResponse for an answer that can run to hundreds of KB (a site report's findings, a watchlist's
 * 10,000 IDs): the same bytes and content type, with the status set on the context (201 for a
 * creation), written in one go however late it comes (src/wire/late-body.ts). Costs a stringify
 * in JS, which a small answer does not need: the lookup keeps jsonResponse.
 */
export function bulkyJsonResponse(body: unknown, set: Set): Response {
  return jsonTextResponse(JSON.stringify(body), set);
}

/** bulkyJsonResponse of JSON already written, as text or as its UTF-8 bytes (whole or in parts). */
export function jsonTextResponse(json: string | Uint8Array | Uint8Array[], set: Set): Response {
  const headers = set.headers as Record<string, string>;
  set.headers = {};
  headers['content-type'] = 'application/json;charset=utf-8';
  return new Response(lateBody(json), { headers, status: typeof set.status === 'number' ? set.status : 200 });
}
