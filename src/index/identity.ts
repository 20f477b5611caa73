import { sha256Hex } from '../hash';
import type { IndexInfo } from './model';

/**
 * What ties a file a release carries beside its index (`.area`, `.search`) to that index, and what
 * a search cursor is sealed with: the SHA-256 of the index's metadata (build time, sources, counts),
 * so a file or cursor of another build is told apart even when the rows are the same.
 */
export function indexIdentity(info: IndexInfo): string {
  return sha256Hex(JSON.stringify(info));
}
