import { AppError } from '../../errors';
import { isJsonType, kindOf, parseJsonText, readBodyText } from '../../wire/json-body';
import { inputCheck, type InputCheck } from './api-key-auth';

const KIB = 1024;

/**
 * A route body that must be a JSON object (watchlist create and change), read by the route's parse
 * hook and checked by its input step, so Elysia's schema validation only ever sees an object of
 * bounded depth. Without it a `text/plain` body reached the schema as a string ("name is
 * required"), `null` or `[]` made a PATCH that changed nothing answer 200, and 5,000 nested
 * brackets overflowed the validator's error mapper (a 500).
 */
export function jsonObjectBody(maxBytes: number, what: string) {
  const tooLarge = () => new AppError('PAYLOAD_TOO_LARGE', `The request body is over ${maxBytes} bytes (${maxBytes / KIB} KiB); ${what}`);
  return {
    /** Elysia's `parse` hook: the object, or the AppError saying why there is none (reported by `input`). */
    parse: async ({ request }: { request: Request }): Promise<unknown> => {
      const declared = request.headers.get('content-length');
      if (declared !== null && !(Number(declared) <= maxBytes)) return tooLarge();
      if (!isJsonType(request.headers.get('content-type'))) {
        return new AppError('INVALID_BODY', 'The body must be a JSON object sent with Content-Type: application/json');
      }
      const text = await readBodyText(request, maxBytes, tooLarge);
      if (typeof text !== 'string') return text;
      if (text.trim() === '') return new AppError('INVALID_BODY', 'The body must be a JSON object, got an empty body');
      const value = parseJsonText(text);
      if (value instanceof AppError) return value;
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return new AppError('INVALID_BODY', `The body must be a JSON object, got ${kindOf(value)}`);
      return value;
    },
    /** The pipeline's input step: throws what `parse` found, after authentication and before validation. */
    input: inputCheck(['INVALID_BODY', 'PAYLOAD_TOO_LARGE'], ({ body }) => {
      if (body instanceof AppError) throw body;
      return body;
    }) as InputCheck,
  };
}
