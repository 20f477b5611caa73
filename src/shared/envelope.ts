import { t, type Static } from './typebox';
import { ERROR_CODES, ERROR_STATUS, type ErrorCode } from '../errors';

/** docs/api.md, Envelope: which data a data answer was made from. */
export const DatasetMeta = t.Object(
  {
    name: t.String({ description: 'The dataset served (as /api/v1/status names it)' }),
    as_of: t.String({ description: 'Date the data describes (YYYY-MM-DD)' }),
    fictitious: t.Boolean({ description: 'True when the data is an invented sample, not EPA data' }),
    score_method: t.String({ description: 'The facility-score method that computed the scores', examples: ['fcs-3'] }),
  },
  { description: 'The dataset behind a data answer' },
);
export type DatasetMeta = Static<typeof DatasetMeta>;

const datasets = new WeakMap<object, DatasetMeta>();

/**
 * The `meta.dataset` of an index's answers: one frozen object per index information, so a lookup
 * adds a reference, not an allocation.
 */
export function datasetMeta(info: { dataset_name: string; as_of: string; fictitious: boolean; score_version: string }): DatasetMeta {
  let d = datasets.get(info);
  if (!d) datasets.set(info, (d = Object.freeze({ name: info.dataset_name, as_of: info.as_of, fictitious: info.fictitious, score_method: info.score_version })));
  return d;
}

/** docs/api.md, Envelope: present on every JSON response, success or error. */
export const Meta = t.Object(
  {
    request_id: t.String({
      pattern: '^[A-Za-z0-9._-]{1,64}$',
      description: 'req_ + 20 characters when the service makes it; a well-formed X-Request-Id sent by the caller (at most 64 of A-Z a-z 0-9 . _ -) is used as is',
      examples: ['req_01JD3X9Q4T8M2K7V5N6P'],
    }),
    timestamp: t.String({ format: 'date-time', examples: ['2026-11-22T01:30:00.000Z'] }),
    response_time_ms: t.Integer({ minimum: 0, examples: [1] }),
    dataset: t.Optional(t.Object(DatasetMeta.properties, { description: 'Data answers only (facility, history, portfolio, area, search, site report): the dataset it was made from' })),
  },
  { description: 'Response metadata' },
);
export type Meta = Static<typeof Meta>;

function errorEnvelopeOf(codes: readonly ErrorCode[], description: string) {
  return t.Object(
    {
      error: t.Object({
        code: t.UnionEnum(codes as [ErrorCode, ...ErrorCode[]], { description: 'Machine-readable code; the closed set of src/errors.ts (docs/api.md)', examples: [codes[0]] }),
        message: t.String({ examples: ['No facility with registry ID 123456789012 is in the index'] }),
        status: t.Integer({ examples: [ERROR_STATUS[codes[0]!]] }),
      }),
      meta: Meta,
    },
    { description },
  );
}

/** docs/api.md, Errors: the error body, `code` one of the closed set of src/errors.ts. */
export const ErrorEnvelope = errorEnvelopeOf(ERROR_CODES, 'Error envelope');
export type ErrorEnvelope = Static<typeof ErrorEnvelope>;

type ErrorStatus = (typeof ERROR_STATUS)[ErrorCode];
const envelopesByCodes = new Map<string, ReturnType<typeof errorEnvelopeOf>>();

/**
 * The `response` entries of the errors a route can answer, one per status, each naming only the
 * codes of that status (e.g. 429: RATE_LIMIT_EXCEEDED). Statuses come from the one table, so a
 * route lists codes, never numbers.
 */
export function errorResponses(...codes: ErrorCode[]): Record<number, ReturnType<typeof errorEnvelopeOf>> {
  const byStatus = new Map<ErrorStatus, ErrorCode[]>();
  for (const code of ERROR_CODES) {
    if (!codes.includes(code)) continue;
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<number, ReturnType<typeof errorEnvelopeOf>> = {};
  for (const [status, these] of byStatus) {
    const key = these.join(',');
    let schema = envelopesByCodes.get(key);
    if (!schema) envelopesByCodes.set(key, (schema = errorEnvelopeOf(these, `Error envelope: ${these.join(' or ')}`)));
    out[status] = schema;
  }
  return out;
}

/**
 * `{ data, meta }` schema for a success body whose data is `data`. Marked `noValidate`: Elysia
 * would otherwise re-check every success body at run time (a large share of a lookup's time); the
 * schemas still drive OpenAPI, and tests check bodies against them (test/helpers.ts).
 */
export const Envelope = <T extends Parameters<typeof t.Object>[0]>(data: ReturnType<typeof t.Object<T>>) =>
  t.Object({ data, meta: Meta }, { noValidate: true });

export function errorBody(code: ErrorCode, status: number, message: string, meta: Meta): ErrorEnvelope {
  return { error: { code, message, status }, meta };
}

/** RFC 9110 asks every 401 to name a challenge; there is no registered scheme for a key header, so
 * the challenge names the header to use. */
export const API_KEY_CHALLENGE = { 'www-authenticate': 'ApiKey realm="facility-score", header="X-API-Key"' } as const;
