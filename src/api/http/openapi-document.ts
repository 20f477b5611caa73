import { ERROR_STATUS, type ErrorCode } from '../../errors';

/**
 * The OpenAPI document as served: the plugin's output turned into a valid OpenAPI 3.1 document by
 * conventions that hold for every route, including routes added later (test/http/openapi-lint.test.ts
 * runs Redocly and swagger-parser on it). What it does, in order:
 * - declares 3.1 (the schemas are JSON Schema 2020-12: `examples`, `const`, `type: "null"`) and `servers`;
 * - drops what is not OpenAPI (Elysia's `noValidate`), and its string form of integers (`anyOf
 *   [{type: string, format: integer}, {type: integer}]`, which typed clients read as string | number);
 * - keeps one media type per body: JSON for request bodies and JSON responses, text/plain for text;
 * - hoists Meta and every 2xx JSON body into `components.schemas`;
 * - gives every error status its own response in `components.responses`: a closed enum of the codes
 *   that status can carry (from src/errors.ts), and one example per code;
 * - documents ETag, If-None-Match and the 304 (GET) or 412 (POST) of an operation marked `x-conditional`,
 *   and Vary and Content-Encoding on the JSON, CSV and GeoJSON answers of keyed operations (but one
 *   marked `x-compressed: false`);
 * - documents X-Request-Id on every response, the quota headers on metered API-key operations, Retry-After,
 *   WWW-Authenticate and Allow where they are sent; marks public operations `security: []`.
 */

// Typed by ErrorCode: a new code without an example does not compile.
const EXAMPLE_MESSAGES: Record<ErrorCode, string> = {
  INVALID_BODY: 'Malformed JSON: the body is not valid JSON (NaN, Infinity, comments, single quotes and trailing commas are not JSON)',
  UNAUTHENTICATED: 'Missing API key: send it in the X-API-Key header',
  QUOTA_EXHAUSTED: "The Free plan's 10 calls for this month are used up; the quota resets at 2026-12-01T00:00:00.000Z",
  TIER_RESTRICTED: 'The area endpoint requires a Starter plan or above',
  NOT_FOUND: 'No facility with registry ID 123456789012 is in the index',
  VALIDATION_ERROR: 'radius_miles must be a number from 0 to 25, got "30"',
  RATE_LIMIT_EXCEEDED: 'Monthly call limit of 10000 reached; it resets at 2026-12-01T00:00:00.000Z',
  REGENERATE_THROTTLED: 'A key can be regenerated once per minute; retry in 42 s',
  INTERNAL_ERROR: 'Internal error; retry once after about a second, then report the request_id',
  METHOD_NOT_ALLOWED: 'DELETE is not allowed on /api/v1/status; use GET',
  KEY_EXISTS: 'This account already has a live API key: regenerate it to get a new one',
  PRECONDITION_FAILED: 'If-None-Match matches the current document (its ETag); it has not changed, so it is not sent again',
  PAYLOAD_TOO_LARGE: 'The request body is over 65536 bytes (64 KiB); a portfolio of 500 IDs needs under 8 KiB',
  SERVICE_UNAVAILABLE: 'Shared state is temporarily unavailable; retry in a few seconds',
  INVALID_REQUEST: 'The request target and Host header do not form a URL: send a path such as /api/v1/status and a valid Host',
};

/** Codes any operation can answer, whatever it declares (src/api/http/request-guard.ts refuses these before routing). */
const ANY_OPERATION: ErrorCode[] = ['INVALID_REQUEST'];

const STATUS_TEXT: Record<string, string> = {
  '200': 'OK', '201': 'Created', '204': 'No Content', '304': 'Not Modified', '412': 'Precondition Failed', '400': 'Bad Request', '401': 'Unauthorized', '402': 'Payment Required',
  '403': 'Forbidden', '404': 'Not Found', '405': 'Method Not Allowed', '409': 'Conflict', '413': 'Payload Too Large',
  '422': 'Unprocessable Content', '429': 'Too Many Requests', '500': 'Internal Server Error', '503': 'Service Unavailable',
};

const REQUEST_ID_HEADER = {
  description: 'The request id, also in `meta.request_id`: the caller\'s own well-formed `X-Request-Id` (1-64 of A-Z a-z 0-9 . _ -), else `req_` + 20 characters',
  schema: { type: 'string', pattern: '^[A-Za-z0-9._-]{1,64}$', examples: ['req_01JD3X9Q4T8M2K7V5N6P'] },
};

const HEADERS = {
  'X-Request-Id': REQUEST_ID_HEADER,
  'X-RateLimit-Limit': { description: 'Calls allowed in the window: this calendar month (UTC) on an API key; this hour per IP on the demo', schema: { type: 'integer', minimum: 0, examples: [10000] } },
  'X-RateLimit-Remaining': { description: 'Calls left in the window', schema: { type: 'integer', minimum: 0, examples: [9876] } },
  'X-RateLimit-Reset': { description: 'When the window frees again (a key: start of next month, UTC), in epoch seconds', schema: { type: 'integer', minimum: 0, examples: [1764547200] } },
  'RateLimit-Policy': { description: 'IETF httpapi RateLimit draft: `"monthly";q=<limit>;w=<window seconds>` (the demo: `"demo";...`)', schema: { type: 'string', examples: ['"monthly";q=10000;w=2592000'] } },
  RateLimit: { description: 'IETF httpapi RateLimit draft: `"monthly";r=<remaining>;t=<seconds to reset>` (the demo: `"demo";...`)', schema: { type: 'string', examples: ['"monthly";r=9876;t=1339200'] } },
  'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 0, examples: [60] } },
  'WWW-Authenticate': { description: 'The challenge: `ApiKey realm="facility-score", header="X-API-Key"` on data endpoints, `Bearer realm=...` on account endpoints', schema: { type: 'string' } },
  Allow: { description: 'The methods the path accepts', schema: { type: 'string', examples: ['GET'] } },
  ETag: { description: 'Weak validator of the answer (docs/api.md, "Conditional requests"); send it back in `If-None-Match`', schema: { type: 'string', examples: ['W/"1x2y3z.9f8e7d6c5b4a39281706f5e4d3c2b1a0.full"'] } },
  'Cache-Control': { description: '`private, no-cache` on an answer with an ETag: kept by no shared cache, revalidated before reuse', schema: { type: 'string' } },
  Vary: { description: 'The request headers the answer depends on; `Accept-Encoding` on every JSON, CSV and GeoJSON answer that may be compressed', schema: { type: 'string' } },
  'Content-Encoding': { description: '`gzip` when the answer is at least the compression threshold (1 KiB by default) and `Accept-Encoding` takes gzip (docs/api.md, "Compression")', schema: { type: 'string', enum: ['gzip'] } },
} as const;

type HeaderName = keyof typeof HEADERS;
/** The counted window's headers: the monthly quota of a key, the demo's hourly lookups per IP. */
const WINDOW_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'RateLimit-Policy', 'RateLimit'] as const;
/** The public lookup whose answers carry its own window's headers. */
const DEMO_PATH = '/api/v1/demo/facility';
type Json = any;

const headerRef = (name: HeaderName) => ({ $ref: `#/components/headers/${name}` });
const isObject = (v: unknown): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Codes per HTTP status, from the one table. */
function codesByStatus(): Map<number, ErrorCode[]> {
  const m = new Map<number, ErrorCode[]>();
  for (const [code, status] of Object.entries(ERROR_STATUS) as [ErrorCode, number][]) m.set(status, [...(m.get(status) ?? []), code]);
  return m;
}

/** Schema clean-up, recursively: no Elysia-only keys, integers as integers. */
function cleanSchema(node: Json): Json {
  if (Array.isArray(node)) return node.map(cleanSchema);
  if (!isObject(node)) return node;
  const out: Record<string, Json> = {};
  for (const [k, v] of Object.entries(node)) if (k !== 'noValidate') out[k] = cleanSchema(v);
  // Elysia's coercion form of a number: anyOf [{type: string, format: integer|numeric}, {type: integer|number}].
  if (Array.isArray(out.anyOf) && out.anyOf.length === 2) {
    const [a, b] = out.anyOf as Json[];
    const numeric = [a, b].find((s) => s?.type === 'integer' || s?.type === 'number');
    const asString = [a, b].find((s) => s?.type === 'string' && typeof s.format === 'string' && ['integer', 'numeric', 'number'].includes(s.format));
    if (numeric && asString) {
      const { anyOf: _drop, ...outer } = out;
      return { ...outer, ...numeric };
    }
  }
  return out;
}

function sameJson(a: Json, b: Json): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Replaces every subschema equal to `target` with a $ref to it. */
function refAll(node: Json, target: Json, ref: string): Json {
  if (Array.isArray(node)) return node.map((n) => refAll(n, target, ref));
  if (!isObject(node)) return node;
  if (sameJson(node, target)) return { $ref: ref };
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, refAll(v, target, ref)]));
}

const pascal = (s: string) => s.replace(/(^|[^A-Za-z0-9]+)([A-Za-z0-9])/g, (_m, _sep, c: string) => c.toUpperCase());

/**
 * One media type per body: JSON when the body is JSON, text/plain when it is text. The plugin adds
 * form and text copies of every JSON body; a response's own further forms (the CSV and GeoJSON
 * exports) are kept.
 */
function oneMediaType(content: Record<string, Json>, request: boolean): Record<string, Json> {
  if (content['application/json']) {
    const schema = content['application/json'].schema;
    if (!request && schema?.type === 'string' && content['text/plain']) return { 'text/plain': content['text/plain'] };
    const { 'application/json': json, 'multipart/form-data': _m, 'text/plain': _t, ...own } = content;
    return request ? { 'application/json': json } : { 'application/json': json, ...own };
  }
  const { 'multipart/form-data': _m, ...rest } = content;
  return rest;
}

/** The error response of `status` carrying `codes` (all of that status's codes when the route names none). */
function errorComponent(status: number, codes: ErrorCode[], all: ErrorCode[]) {
  const name = codes.length === all.length ? `Error${status}` : `Error${status}${codes.map(pascalCode).join('')}`;
  const schema = {
    type: 'object',
    description: `Error envelope of a ${status} response: ${codes.join(' or ')}`,
    required: ['error', 'meta'],
    properties: {
      error: {
        type: 'object',
        required: ['code', 'message', 'status'],
        properties: {
          code: { type: 'string', enum: codes, description: 'Machine-readable code; the closed set of src/errors.ts (docs/api.md)' },
          message: { type: 'string', description: 'Human-readable, in our own words' },
          status: { type: 'integer', const: status },
        },
      },
      meta: { $ref: '#/components/schemas/Meta' },
    },
  };
  const headers: Record<string, Json> = { 'X-Request-Id': headerRef('X-Request-Id') };
  if (status === 401) headers['WWW-Authenticate'] = headerRef('WWW-Authenticate');
  if (status === 405) headers.Allow = headerRef('Allow');
  if (status === 429 || status === 503) headers['Retry-After'] = headerRef('Retry-After');
  const response = {
    description: `${STATUS_TEXT[String(status)] ?? 'Error'}: ${codes.join(' or ')}`,
    headers,
    content: {
      'application/json': {
        schema: { $ref: `#/components/schemas/${name}` },
        examples: Object.fromEntries(codes.map((code) => [code, { summary: code, value: { error: { code, message: EXAMPLE_MESSAGES[code], status }, meta: META_EXAMPLE } }])),
      },
    },
  };
  return { name, schema, response };
}

const pascalCode = (code: string) => code.toLowerCase().replace(/(^|_)([a-z])/g, (_m, _s, c: string) => c.toUpperCase());

const IF_NONE_MATCH = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description: 'An ETag of an earlier answer: 304 Not Modified (GET) or 412 PRECONDITION_FAILED (POST) while it is current (docs/api.md, "Conditional requests")',
  schema: { type: 'string' },
};

const NOT_MODIFIED = {
  description: 'Not Modified: the answer whose ETag was sent in If-None-Match is current. No body; counts as a call.',
  headers: { 'X-Request-Id': headerRef('X-Request-Id'), ETag: headerRef('ETag'), 'Cache-Control': headerRef('Cache-Control') },
};

const META_EXAMPLE = { request_id: 'req_01JD3X9Q4T8M2K7V5N6P', timestamp: '2026-11-22T01:30:00.000Z', response_time_ms: 1 };

/** `raw`: the document the swagger plugin builds. Returns a new document; `raw` is not changed. */
export function finishDocument(raw: Json, metaSchema: Json): Json {
  const doc = cleanSchema(structuredClone(raw));
  const meta = cleanSchema(JSON.parse(JSON.stringify(metaSchema)));
  doc.openapi = '3.1.0';
  doc.servers = [{ url: '/', description: 'This server (paths are relative to where the document is served)' }];
  const schemas: Record<string, Json> = { Meta: meta };
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) schemas[name] = refAll(schema, meta, '#/components/schemas/Meta');
  const errorResponses: Record<string, Json> = {};
  const hoisted: [Json, string][] = [];
  const codes = codesByStatus();

  for (const [path, item] of Object.entries(doc.paths ?? {}) as [string, Record<string, Json>][]) {
    for (const [method, op] of Object.entries(item)) {
      if (!isObject(op) || !op.responses) continue;
      // Metered: an API-key operation counted against the monthly quota (it declares 402 or 429), whose answers carry the quota headers.
      const keyed = Array.isArray(op.security) && op.security.some((s: Json) => isObject(s) && 'apiKey' in s);
      const metered = keyed && ('402' in op.responses || '429' in op.responses);
      if (!op.security) op.security = []; // public: stated, not left to a default
      op.operationId ??= `${method}${pascal(path)}`;
      // Routes that set ETag say so in their `detail` (src/api/http/conditional.ts); the GETs answer a
      // matching If-None-Match with 304, the POSTs with 412.
      const conditional = op['x-conditional'] === true;
      // keyed answers may be compressed, but for a route that says it never is (the lookup, always small)
      const compressed = keyed && op['x-compressed'] !== false;
      delete op['x-conditional'];
      delete op['x-compressed'];
      if (conditional) {
        op.parameters = [...(op.parameters ?? []), IF_NONE_MATCH];
        if (method === 'get') op.responses['304'] = structuredClone(NOT_MODIFIED);
      }
      for (const param of op.parameters ?? []) {
        // A parameter's `examples` is a map of Example Objects; the plugin copies the schema's array.
        if (Array.isArray(param.examples)) {
          param.example = param.examples[0];
          delete param.examples;
        }
      }
      if (op.requestBody?.content) {
        op.requestBody.content = oneMediaType(op.requestBody.content, true);
        const media = op.requestBody.content['application/json'];
        if (media?.schema && !media.schema.$ref) {
          const name = `${pascal(op.operationId)}Body`;
          schemas[name] = refAll(media.schema, meta, '#/components/schemas/Meta');
          media.schema = { $ref: `#/components/schemas/${name}` };
        }
      }
      for (const [status, response] of Object.entries(op.responses) as [string, Json][]) {
        const n = Number(status);
        if (status === 'default') continue;
        if (n >= 400 && codes.has(n)) {
          // The codes the route declares for this status (its schema's enum), else every code of the status.
          const all = codes.get(n)!;
          const declared: unknown = response.content?.['application/json']?.schema?.properties?.error?.properties?.code?.enum;
          const these = Array.isArray(declared) ? all.filter((c) => declared.includes(c) || ANY_OPERATION.includes(c)) : all;
          const e = errorComponent(n, these.length ? these : all, all);
          schemas[e.name] = e.schema;
          let ref = e.name;
          // A counted answer (a 404 of a counted lookup) and the over-cap ones (402, 429) carry the window's headers too.
          const windowed = (metered && (n === 402 || n === 404 || n === 429)) || (path === DEMO_PATH && (n === 404 || n === 429));
          if (windowed) {
            ref = `${e.name}Counted`;
            const headers: Record<string, Json> = { ...e.response.headers };
            if (n !== 404) headers['Retry-After'] = headerRef('Retry-After');
            for (const h of WINDOW_HEADERS) headers[h] = headerRef(h);
            errorResponses[ref] = { ...e.response, headers };
          } else errorResponses[e.name] = e.response;
          const custom = typeof response.description === 'string' && !/^Error envelope/.test(response.description) ? response.description : undefined;
          op.responses[status] = { $ref: `#/components/responses/${ref}`, ...(custom ? { description: custom } : {}) };
          continue;
        }
        response.description ??= STATUS_TEXT[status] ?? 'Response';
        if (response.content) response.content = oneMediaType(response.content, false);
        response.headers = { 'X-Request-Id': headerRef('X-Request-Id'), ...(response.headers ?? {}) };
        if (n === 304) {
          // counted like the 200 it stands for, so it carries the quota headers
          if (metered) for (const h of WINDOW_HEADERS) response.headers[h] = headerRef(h);
          continue;
        }
        if (conditional) response.headers.ETag = headerRef('ETag');
        if (conditional && method === 'get') response.headers['Cache-Control'] = headerRef('Cache-Control');
        if (compressed && response.content && Object.keys(response.content).some((type) => /json|csv/.test(type))) {
          response.headers.Vary = headerRef('Vary');
          response.headers['Content-Encoding'] = headerRef('Content-Encoding');
        }
        if ((metered || path === DEMO_PATH) && n < 300) {
          for (const h of WINDOW_HEADERS) response.headers[h] = headerRef(h);
        }
        const media = response.content?.['application/json'];
        if (n < 300 && media?.schema && !media.schema.$ref) {
          const body = refAll(media.schema, meta, '#/components/schemas/Meta');
          const seen = hoisted.find(([s]) => sameJson(s, body));
          const name = seen?.[1] ?? `${pascal(op.operationId)}Response`;
          if (!seen) {
            schemas[name] = body;
            hoisted.push([body, name]);
          }
          media.schema = { $ref: `#/components/schemas/${name}` };
        }
      }
      // Any other status (405 on a wrong method, 413, a 503 during an outage...) is the error envelope too.
      op.responses.default ??= { $ref: '#/components/responses/Error' };
    }
  }
  errorResponses.Error = {
    description: 'Any other error: the error envelope, `code` from the closed set (docs/api.md)',
    headers: { 'X-Request-Id': headerRef('X-Request-Id') },
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
  };
  const usedNow = JSON.stringify([doc.paths, errorResponses]);
  const headers = Object.fromEntries(Object.entries(HEADERS).filter(([name]) => usedNow.includes(`#/components/headers/${name}"`)));
  doc.components = {
    ...doc.components,
    schemas: { ...(doc.components?.schemas ?? {}), ...schemas },
    responses: { ...(doc.components?.responses ?? {}), ...errorResponses },
    headers: { ...(doc.components?.headers ?? {}), ...headers },
  };
  return doc;
}
