import { AppError } from '../errors';

/** What a client is told to wait before retrying a call the state store could not record. */
export const STORE_RETRY_AFTER_S = 5;

// SQLite's answers for a store that cannot write: disk full, I/O error, read-only file or mount,
// file gone, or held by another process past the busy timeout. Not a fault of the request.
const CANNOT_WRITE = /^SQLITE_(FULL|IOERR|READONLY|CANTOPEN|BUSY|LOCKED)/;

/**
 * The 503 a call gets when the state store refuses a write (docs/api.md, SERVICE_UNAVAILABLE):
 * nothing was counted, the client may retry after Retry-After. Null for any other error.
 */
export function storeUnavailable(e: unknown): AppError | null {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !CANNOT_WRITE.test(code)) return null;
  return new AppError('SERVICE_UNAVAILABLE', `The service cannot record calls right now (its state store refuses writes); nothing was counted; retry in ${STORE_RETRY_AFTER_S} s`, {
    'retry-after': String(STORE_RETRY_AFTER_S),
  });
}
