import { Elysia, ValidationError } from 'elysia';
import type { AppDeps } from '../deps';
import { API_KEY_CHALLENGE, errorBody } from '../../shared/envelope';
import { validationMessage, type SchemaFailure } from './validation-message';
import { AppError, ERROR_STATUS, type ErrorCode } from '../../errors';
import { metaFor, requestContext } from './request-context';
import { storeUnavailable } from '../../state/storage-error';

export const INTERNAL_MESSAGE = 'Internal error; retry once after about a second, then report the request_id';

type RouteLister = () => { method: string; path: string }[];

// Compiled once per route pattern: unknown-route floods should not build regexes per request.
const patternRegexes = new Map<string, RegExp>();

/** Matches a concrete path against Elysia route patterns (`:param`, `*`). */
function pathMatches(pattern: string, path: string): boolean {
  let re = patternRegexes.get(pattern);
  if (!re) {
    re = new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:[^/]+/g, '[^/]+').replace(/\*/g, '.*')}/?$`);
    patternRegexes.set(pattern, re);
  }
  return re.test(path);
}

/** Our sentence for the first failing value (never the validator's wording). */
function validationSummary(error: ValidationError): string {
  return validationMessage(error.all[0] as SchemaFailure | undefined);
}

/** Turns whatever was thrown into the error envelope (docs/api.md, Errors); nothing internal ever reaches the client. */
export function classify(error: unknown, elysiaCode: string | number, request: Request, routes: RouteLister) {
  if (error instanceof AppError) return { code: error.errorCode, message: error.message, headers: error.headers };
  // Any write the state store refused (a full disk): 503 with Retry-After, never a 500.
  const unavailable = storeUnavailable(error);
  if (unavailable) return { code: unavailable.errorCode, message: unavailable.message, headers: unavailable.headers };
  if (error instanceof ValidationError) {
    // A body that breaks the schema is 400 INVALID_BODY, not 422.
    if (error.type === 'body') return { code: 'INVALID_BODY' as const, message: `Invalid request body: ${validationSummary(error)}`, headers: {} };
    // A path segment that cannot be an ID names no resource: 404 (docs/api.md, "malformed IDs").
    if (error.type === 'params') return { code: 'NOT_FOUND' as const, message: `No such resource: ${validationSummary(error)}`, headers: {} };
    return { code: 'VALIDATION_ERROR' as const, message: validationSummary(error), headers: {} };
  }
  switch (elysiaCode) {
    case 'PARSE':
      return { code: 'INVALID_BODY' as const, message: 'Malformed request body: expected a JSON object', headers: {} };
    case 'NOT_FOUND': {
      const path = new URL(request.url).pathname;
      const allowed = [...new Set(routes().filter((r) => r.method !== request.method && pathMatches(r.path, path)).map((r) => r.method))];
      if (allowed.length > 0) {
        return { code: 'METHOD_NOT_ALLOWED' as const, message: `${request.method} is not allowed on ${path}; use ${allowed.join(' or ')}`, headers: { allow: allowed.join(', ') } };
      }
      return { code: 'NOT_FOUND' as const, message: `No such endpoint: ${request.method} ${path}`, headers: {} };
    }
    default:
      return { code: 'INTERNAL_ERROR' as const, message: INTERNAL_MESSAGE, headers: {} };
  }
}

/** The one global error handler: renders `{ error: { code, message, status }, meta }`. */
export function errorHandler(deps: Pick<AppDeps, 'log' | 'store' | 'clock'>, routes: RouteLister) {
  return new Elysia({ name: 'error-handler' }).use(requestContext).onError({ as: 'global' }, async ({ error, code, request, set, facts }) => {
    const c = classify(error, code, request, routes);
    const status = ERROR_STATUS[c.code as ErrorCode];
    // A 503 is a known, declared condition (state store down) that can hit every request during an
    // outage: one warning line each, no stack. A 500 is a bug: log everything.
    if (c.code === 'SERVICE_UNAVAILABLE') {
      deps.log({ level: 'warn', request_id: facts.id, msg: c.message });
    } else if (status >= 500) {
      deps.log({ level: 'error', request_id: facts.id, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error), stack: error instanceof Error ? error.stack : undefined });
    }
    // Our failure, not the caller's: the call it was charged for is given back.
    if (status >= 500 && facts.counted && facts.accountId) {
      facts.counted = false;
      await deps.store.refundMonthly(facts.accountId, deps.clock()).catch(() => undefined);
    }
    facts.status = status;
    facts.errorCode = c.code;
    set.status = status;
    for (const [k, v] of Object.entries(c.headers)) set.headers[k] = v;
    // Every 401 names a challenge (RFC 9110 11.6.1); a route that forgot one still gets the API key's.
    if (status === 401 && !set.headers['www-authenticate']) set.headers['www-authenticate'] = API_KEY_CHALLENGE['www-authenticate'];
    set.headers['content-type'] = 'application/json; charset=utf-8';
    return errorBody(c.code, status, c.message, metaFor(facts, deps.clock));
  });
}
