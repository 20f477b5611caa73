import { FacilityIndex, IndexOpenError } from '../facility-index';
import type { PreviousIndex } from '../history/carry-forward';
import { UnusableInputError } from './errors';

/**
 * A release whose as-of date does not move forward from the previous index's latest release. Not an
 * UnusableInputError: the file is fine, and the producer passes it through unchanged (no file-name prefix).
 */
export class ReleaseOrderError extends Error {}

/** The index given as --previous: its releases and whether it has the tables to carry (an older index has not). */
export function readPrevious(path: string): PreviousIndex {
  let index: FacilityIndex;
  try {
    index = FacilityIndex.open(path);
  } catch (e) {
    if (e instanceof IndexOpenError) throw new UnusableInputError(`--previous ${path}: ${e.message}`);
    throw e;
  }
  try {
    const hasTables = index.db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'history'").get() !== null;
    return { path, releases: [...index.releases()], hasTables, inputsKeys: index.inputsKeys };
  } finally {
    index.close();
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
