import type { PreviousIndex } from '../index/history-tables/carry-forward';
import { PreviousFormatError, readPreviousIndex } from '../index/previous-format';
import { UnusableInputError } from './errors';

/**
 * A release whose as-of date does not move forward from the previous index's latest release. Not an
 * UnusableInputError: the file is fine, and the producer passes it through unchanged (no file-name prefix).
 */
export class ReleaseOrderError extends Error {}

/** The index given as --previous: its releases and how it stores its inputs (../previous-format.ts reads this format and the one before). */
export function readPrevious(path: string): PreviousIndex {
  try {
    return readPreviousIndex(path);
  } catch (e) {
    if (e instanceof PreviousFormatError) throw new UnusableInputError(`--previous ${path}: ${e.message}`);
    throw e;
  }
}

/** Throws ReleaseOrderError unless `asOf` is after the previous index's latest release (ISO dates compare as strings). */
export function checkMovesForward(asOf: string, previous: PreviousIndex): void {
  const last = previous.releases[previous.releases.length - 1]!;
  if (asOf > last.as_of) return;
  throw new ReleaseOrderError(
    `refused: this release is as of ${asOf}, ${asOf === last.as_of ? 'the same date as' : 'older than'} the latest release of ${previous.path} (as of ${last.as_of}); ` +
      'a new release must describe a later date (check the file, or --as-of)',
  );
}
