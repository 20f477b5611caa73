/**
 * The one error type of the service and the one table from error code to HTTP status.
 * Domain code throws `new AppError(code, message)`; the global handler in ./error-handler.ts renders it.
 */

/** Closed set of machine-readable codes. The first nine are the API's contract; the rest are
 * extensions for HTTP situations it does not name (docs/api.md, Errors). */
export const ERROR_STATUS = {
  INVALID_BODY: 400,
  UNAUTHENTICATED: 401,
  QUOTA_EXHAUSTED: 402,
  TIER_RESTRICTED: 403,
  NOT_FOUND: 404,
  VALIDATION_ERROR: 422,
  RATE_LIMIT_EXCEEDED: 429,
  REGENERATE_THROTTLED: 429,
  INTERNAL_ERROR: 500,
  METHOD_NOT_ALLOWED: 405,
  KEY_EXISTS: 409,
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  SERVICE_UNAVAILABLE: 503,
  INVALID_REQUEST: 400,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** The codes in table order (the enum of `ErrorEnvelope.code` in the OpenAPI document). */
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

// The field is `errorCode`, not `code`: Elysia reads `error.code` itself to classify errors.
export class AppError extends Error {
  readonly errorCode: ErrorCode;
  readonly status: number;
  /** Extra response headers, e.g. Retry-After on a 429. */
  readonly headers: Record<string, string>;

  constructor(errorCode: ErrorCode, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'AppError';
    this.errorCode = errorCode;
    this.status = ERROR_STATUS[errorCode];
    this.headers = headers;
  }
}
