import { join } from 'node:path';

/** Where the bundled sample index lives in a source checkout (built by `npm run sample`). */
export const BUNDLED_INDEX_PATH = join(import.meta.dir, '..', '..', 'data', 'sample.sqlite');

/** The index to open: an explicit path, else the bundled sample. */
export function resolveIndexPath(explicit: string | null): string {
  return explicit ?? BUNDLED_INDEX_PATH;
}
