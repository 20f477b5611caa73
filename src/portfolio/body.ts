import { TIER_RULES, type Tier } from '../tiers';
import { AppError } from '../errors';

/**
 * Largest portfolio body read, in bytes. 500 twelve-digit IDs as JSON take about 7.5 KiB; 64 KiB
 * leaves room for pretty-printing and long unknown IDs while keeping a hostile body cheap.
 */
export const MAX_BODY_BYTES = 64 * 1024;

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/** What the messages of `readJsonText` say about the body a route expects. */
export type BodyHints = { example: string; typicalSize: string };
const PORTFOLIO_HINTS: BodyHints = { example: '{"registry_ids": [...]}', typicalSize: 'a portfolio of 500 IDs needs under 8 KiB' };

function tooLarge(hints: BodyHints): AppError {
  return new AppError('PAYLOAD_TOO_LARGE', `The request body is over ${MAX_BODY_BYTES} bytes (64 KiB); ${hints.typicalSize}`);
}

/**
 * The body as text, read only if it is JSON and at most MAX_BODY_BYTES long. A declared
 * Content-Length over the cap is refused before a byte is read; without one (chunked), or when it
 * understates, reading stops at the first chunk past the cap. Returns an AppError instead of the
 * text when the body is not usable JSON text (Elysia would wrap a throw from a parse hook into a
 * generic parse error), so the route reports it, after authentication.
 */
export async function readJsonText(request: Request, hints: BodyHints = PORTFOLIO_HINTS): Promise<string | AppError> {
  const declared = request.headers.get('content-length');
  if (declared !== null && !(Number(declared) <= MAX_BODY_BYTES)) return tooLarge(hints);
  if (!JSON_TYPE.test(request.headers.get('content-type') ?? '')) {
    return new AppError('INVALID_BODY', 'The body must be JSON sent with Content-Type: application/json');
  }
  if (!request.body) return new AppError('INVALID_BODY', `The body is empty; send ${hints.example}`);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      void reader.cancel().catch(() => undefined);
      return tooLarge(hints);
    }
    chunks.push(value);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    return new AppError('INVALID_BODY', 'The body is not valid UTF-8');
  }
}

export const MALFORMED_JSON = 'Malformed JSON: the body is not valid JSON (NaN, Infinity, comments, single quotes and trailing commas are not JSON)';

/** Parses JSON text, or says why it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    // The parser's own text ("JSON Parse error: Unexpected identifier") names the engine: ours instead.
    return new AppError('INVALID_BODY', MALFORMED_JSON);
  }
}

function kindOf(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : `a ${typeof v}`;
}

/**
 * Spec 4.2 rules 2 and 3 on a parsed body: 400 INVALID_BODY for a body that is not
 * `{"registry_ids": [string, ...]}`, then 422 VALIDATION_ERROR for more IDs than the tier's batch
 * limit (counted as sent, duplicates included). Returns the IDs.
 */
export function checkPortfolioBody(body: unknown, tier: Tier): string[] {
  if (body instanceof AppError) throw body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new AppError('INVALID_BODY', `The body must be a JSON object like {"registry_ids": ["110000307695"]}, got ${kindOf(body)}`);
  }
  const ids = (body as Record<string, unknown>).registry_ids;
  if (ids === undefined) throw new AppError('INVALID_BODY', 'registry_ids is required: an array of registry ID strings');
  if (!Array.isArray(ids)) throw new AppError('INVALID_BODY', `registry_ids must be an array of strings, got ${kindOf(ids)}`);
  const bad = ids.findIndex((id) => typeof id !== 'string');
  if (bad >= 0) throw new AppError('INVALID_BODY', `registry_ids[${bad}] must be a string, got ${kindOf(ids[bad])}`);
  const rule = TIER_RULES[tier];
  if (ids.length > rule.portfolioBatch) {
    throw new AppError(
      'VALIDATION_ERROR',
      `registry_ids holds ${ids.length} IDs; the ${rule.label} plan allows at most ${rule.portfolioBatch} per call`,
    );
  }
  return ids as string[];
}
