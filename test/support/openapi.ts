import OpenAPIBackend from 'openapi-backend';

/** Follows a local `$ref` ("#/components/...") in an OpenAPI document; other nodes come back as they are. */
export function deref(doc: any, node: any): any {
  if (!node?.$ref) return node;
  return deref(doc, node.$ref.slice(2).split('/').reduce((n: any, k: string) => n?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc));
}

/** The document with every object schema that lists its properties closed to others (additionalProperties: false where left open). */
export function closedSchemas(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closedSchemas);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = k === 'properties' ? Object.fromEntries(Object.entries(v as object).map(([p, s]) => [p, closedSchemas(s)])) : closedSchemas(v);
  if ('properties' in out && out.type === 'object' && !('additionalProperties' in out)) out.additionalProperties = false;
  return out;
}

/** Headers of HTTP itself (framing, caching, CORS), not of this API's contract. */
const GENERAL = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive', 'vary', 'cache-control', 'etag', 'content-encoding', 'last-modified', 'transfer-encoding']);

/** What answerDrift reads of a response: any fetch's Response (Bun's or undici's typing) fits. */
type Answer = { status: number; headers: Iterable<[string, string]> & { get(name: string): string | null }; clone(): { json(): Promise<unknown> } };

/**
 * An answer's disagreements with the document (openapi-backend over `closedSchemas(doc)`): an
 * undeclared status, a header the response does not declare, a body its schema does not allow.
 * Paths the document does not hold (the web page, /swagger) are not its business: null.
 */
export async function answerDrift(api: OpenAPIBackend, req: { method: string; url: URL; headers: Record<string, string> }, res: Answer): Promise<string[] | null> {
  const op = api.matchOperation({ method: req.method.toLowerCase(), path: req.url.pathname, headers: req.headers, query: Object.fromEntries(req.url.searchParams) });
  const what = `${req.method} ${req.url.pathname}${req.url.search} -> ${res.status}`;
  if (!op) return req.url.pathname.startsWith('/api/') && res.status < 400 ? [`${what}: not in the document`] : null;
  const problems: string[] = [];
  if (!(String(res.status) in op.responses!) && !('default' in op.responses! && res.status >= 400)) problems.push(`${what}: status not declared`);
  const sent = Object.fromEntries([...res.headers].filter(([k]) => !GENERAL.has(k) && !k.startsWith('access-control-')));
  const h = api.validator.validateResponseHeaders(sent, op, { statusCode: res.status, setMatchType: 'subset' as never });
  if (h.errors) problems.push(`${what}: headers ${JSON.stringify(h.errors.map((e) => e.params))}`);
  if ((res.headers.get('content-type') ?? '').startsWith('application/json')) {
    const b = api.validator.validateResponse(await res.clone().json(), op, res.status);
    if (b.errors) problems.push(`${what}: body ${JSON.stringify(b.errors.slice(0, 3).map((e) => [e.instancePath, e.message, e.params]))}`);
  }
  return problems;
}

/**
 * openapi-backend over the server's own document, schemas closed. `quick`: the document is 3.1,
 * which openapi-backend's own definition check (3.0) refuses; swagger-parser and Redocly validate
 * it (test/http/openapi-lint.test.ts).
 */
export async function closedValidator(doc: unknown): Promise<OpenAPIBackend> {
  const api = new OpenAPIBackend({ definition: closedSchemas(doc) as never, quick: true, validate: true, ajvOpts: { strict: false } });
  await api.init();
  return api;
}
