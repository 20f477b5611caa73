import { AppError } from '../errors';

/**
 * Reading a JSON request body ourselves, for every route that takes one (portfolio, watchlists):
 * capped, content type and UTF-8 checked, nesting bounded, then parsed. Each step answers with an
 * AppError instead of throwing, so a route's parse hook can hand it to the input step, which
 * reports it after authentication (Elysia would wrap a throw from a parse hook into its own error).
 */

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/**
 * Deepest nesting of arrays and objects a body may have. Our bodies nest three levels
 * (`{"rule": {...}}`, `{"registry_ids": [...]}`); thousands of levels overflowed the stack of the
 * validator's error mapper, a 500, before this check.
 */
export const MAX_JSON_DEPTH = 32;

export const MALFORMED_JSON = 'Malformed JSON: the body is not valid JSON (NaN, Infinity, comments, single quotes and trailing commas are not JSON)';
export const TOO_DEEP = `The body nests arrays or objects more than ${MAX_JSON_DEPTH} levels deep; no request body of this API needs more than 3`;

export function isJsonType(contentType: string | null): boolean {
  return JSON_TYPE.test(contentType ?? '');
}

/**
 * The body's bytes as text, read only up to `maxBytes`: a declared Content-Length over the cap is
 * refused before a byte is read; without one (chunked), or when it understates, reading stops at
 * the first chunk past the cap. `tooLarge` is the route's own 413; an empty body is "".
 */
export async function readBodyText(request: Request, maxBytes: number, tooLarge: () => AppError): Promise<string | AppError> {
  const declared = request.headers.get('content-length');
  if (declared !== null && !(Number(declared) <= maxBytes)) return tooLarge();
  if (!request.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      void reader.cancel().catch(() => undefined);
      return tooLarge();
    }
    chunks.push(value);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    return new AppError('INVALID_BODY', 'The body is not valid UTF-8');
  }
}

/** Whether JSON text nests arrays/objects deeper than `max` (brackets inside strings do not count). */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** Parses JSON text, or says why it is not JSON (never in the parser's words). */
export function parseJsonText(text: string): unknown {
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) return new AppError('INVALID_BODY', TOO_DEEP);
  try {
    return JSON.parse(text);
  } catch {
    return new AppError('INVALID_BODY', MALFORMED_JSON);
  }
}

/** What a value is, for a message: "null", "an array", "a string". */
export function kindOf(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : `a ${typeof v}`;
}
