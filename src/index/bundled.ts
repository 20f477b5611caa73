import { Database } from 'bun:sqlite';
import { existsSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { IS_COMPILED_BINARY } from '../worker-url';
import { FacilityIndex, IndexOpenError } from './facility-index';

/** Where the bundled sample index lives in a source checkout (built by `bun run scripts/sample.ts ensure`). */
export const BUNDLED_INDEX_PATH = join(import.meta.dir, '..', '..', 'data', 'sample.sqlite');


/**
 * The sample embedded in the binary: `bun build --compile` stores data/sample.sqlite and its area
 * file inside the executable and this import deserialises it into memory (a few MB), so the binary
 * needs no data file next to it. The import is dynamic so a source checkout without the file still starts
 * every other command. The module (and its Database) is cached, so every open gets its own copy:
 * a SIGHUP reload closes the index it replaces, which must not be the one it switches to.
 */
async function openEmbeddedSample(): Promise<FacilityIndex> {
  const mod = (await import('../../data/sample.sqlite', { with: { type: 'sqlite', embed: 'true' } })) as { default: Database };
  const db = Database.deserialize(mod.default.serialize(), true);
  const index = new FacilityIndex(db);
  // The sample's area file (written beside it by ingest) is embedded too: the area search is ready
  // at start, checked against the index as a file beside an index is (src/ops/index-preparer.ts).
  const area = (await import('../../data/sample.sqlite.area', { with: { type: 'file' } })) as { default: string };
  index.areaFile = await Bun.file(area.default).bytes();
  return index;
}

/**
 * Opens the index to serve: `explicit` (an external file, read-only and memory-mapped, never
 * copied into RAM) or the bundled sample. Throws IndexOpenError, whose message is one line, when
 * the file is missing, not SQLite, truncated or of another format: callers fail at start.
 */
export async function openIndex(explicit: string | null): Promise<FacilityIndex> {
  // A symlink is resolved once: whatever opens this index again (the reload's prepare worker) reads
  // the same file even if the link is repointed meanwhile.
  if (explicit !== null) return FacilityIndex.open(existsSync(explicit) ? realpathSync(explicit) : explicit);
  if (IS_COMPILED_BINARY) return openEmbeddedSample();
  if (!existsSync(BUNDLED_INDEX_PATH)) {
    throw new IndexOpenError(`the bundled sample index ${BUNDLED_INDEX_PATH} is not built yet: run \`bun run scripts/sample.ts ensure\` (or pass --index PATH)`);
  }
  return FacilityIndex.open(BUNDLED_INDEX_PATH);
}
