import { TIER_RULES, type Tier } from '../tiers';
import { AppError } from '../errors';
import { namedItems } from '../shared/problems';
import { isJsonType, kindOf, parseJsonText, readBodyText } from '../wire/json-body';

/**
 * Largest portfolio body read, in bytes. 500 twelve-digit IDs as JSON take about 7.5 KiB; 64 KiB
 * leaves room for pretty-printing and long unknown IDs while keeping a hostile body cheap.
 */
export const MAX_BODY_BYTES = 64 * 1024;

/** What the messages of `readJsonText` say about the body a route expects. */
export type BodyHints = { example: string; typicalSize: string };
const PORTFOLIO_HINTS: BodyHints = { example: '{"registry_ids": [...]}', typicalSize: 'a portfolio of 500 IDs needs under 8 KiB' };

function tooLarge(hints: BodyHints): AppError {
  return new AppError('PAYLOAD_TOO_LARGE', `The request body is over ${MAX_BODY_BYTES} bytes (64 KiB); ${hints.typicalSize}`);
}

/**
 * The body as text, read only if it is JSON and at most MAX_BODY_BYTES long (src/wire/json-body.ts).
 * Returns an AppError instead of the text when the body is not usable JSON text, so the route
 * reports it after authentication.
 */
export async function readJsonText(request: Request, hints: BodyHints = PORTFOLIO_HINTS): Promise<string | AppError> {
  const declared = request.headers.get('content-length');
  if (declared !== null && !(Number(declared) <= MAX_BODY_BYTES)) return tooLarge(hints);
  if (!isJsonType(request.headers.get('content-type'))) {
    return new AppError('INVALID_BODY', 'The body must be JSON sent with Content-Type: application/json');
  }
  const text = await readBodyText(request, MAX_BODY_BYTES, () => tooLarge(hints));
  if (text === '') return new AppError('INVALID_BODY', `The body is empty; send ${hints.example}`);
  return text;
}

/** Parses JSON text (nesting bounded), or says why it is not JSON. */
export const parseJson = parseJsonText;

/**
 * The portfolio's body rules (docs/area-and-portfolio.md) on a parsed body: 400 INVALID_BODY for a body that is not
 * `{"registry_ids": [string, ...]}`, then 422 VALIDATION_ERROR for more IDs than the tier's batch
 * limit (counted as sent, duplicates included). Returns the IDs.
 */
export function checkPortfolioBody(body: unknown, tier: Tier): string[] {
  if (body instanceof AppError) throw body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new AppError('INVALID_BODY', `The body must be a JSON object like {"registry_ids": ["110000307695"]}, got ${kindOf(body)}`);
  }
  const unknown = Object.keys(body).filter((k) => k !== 'registry_ids');
  if (unknown.length > 0) throw new AppError('INVALID_BODY', `unknown ${unknown.length === 1 ? 'field' : 'fields'} ${namedItems(unknown.map((k) => JSON.stringify(k.slice(0, 40))))}; the body takes registry_ids only`);
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
