import { existsSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { Log } from '../log';
import { IS_COMPILED_BINARY } from '../worker-url';
import { embeddedCopy } from './embedded-copy';
import { FacilityIndex, IndexOpenError } from './facility-index';

/** Where the bundled sample index lives in a source checkout (built by `bun run scripts/sample.ts ensure`). */
export const BUNDLED_INDEX_PATH = join(import.meta.dir, '..', '..', 'data', 'sample.sqlite');

/** xxHash3 of the embedded data/sample.sqlite (src/index/embedded-copy.ts), defined by scripts/build.ts. */
declare const FCS_SAMPLE_HASH: string | undefined;
const SAMPLE_HASH = typeof FCS_SAMPLE_HASH === 'string' ? FCS_SAMPLE_HASH : null;

export type OpenIndexOptions = {
  /**
   * Where the compiled binary keeps a file copy of its embedded sample (serve: `<state dir>/embedded-sample`);
   * null: no file is written, the sample is read into memory.
   */
  copyDir: string | null;
  log?: Log;
};

/**
 * The sample embedded in the binary: `bun build --compile` stores data/sample.sqlite and its area
 * file inside the executable, where SQLite cannot open it. It is served from a file copy in
 * `copyDir`, written once per build (named by its hash, checked on every open: a missing, truncated
 * or corrupt copy is written again) and opened read-only and memory-mapped like any index file.
 * Bun's own embedded-SQLite import, serialized and deserialized again for each open, took a large
 * share of the start to the first lookup and three copies of the file in the heap; the fallback when
 * `copyDir` cannot be written (two copies: the bytes, then SQLite's) is slower and larger
 * (docs/benchmarks.md, The compiled binary).
 * Every open is its own connection: a SIGHUP reload closes the index it replaces, which must not
 * be the one it switches to. The imports are dynamic so a source checkout without the files still
 * starts every other command.
 */
async function openEmbeddedSample({ copyDir, log }: OpenIndexOptions): Promise<FacilityIndex> {
  const sample = ((await import('../../data/sample.sqlite', { with: { type: 'file' } })) as { default: string }).default;
  let index: FacilityIndex | null = null;
  if (copyDir !== null && SAMPLE_HASH !== null) {
    try {
      const copy = await embeddedCopy(sample, SAMPLE_HASH, copyDir, 'sample', '.sqlite');
      index = FacilityIndex.open(copy.path);
      if (copy.written) log?.({ level: 'info', msg: `embedded sample copied to ${copy.path}: later starts of this build open it in place` });
    } catch (e) {
      log?.({ level: 'warn', msg: `embedded sample served from memory (+${Math.round(Bun.file(sample).size / 1e6)} MB, slower start): no copy in ${copyDir} (${(e as Error).message})` });
    }
  }
  index ??= FacilityIndex.fromBytes(await Bun.file(sample).bytes());
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
export async function openIndex(explicit: string | null, options: OpenIndexOptions = { copyDir: null }): Promise<FacilityIndex> {
  // A symlink is resolved once: whatever opens this index again (the reload's prepare worker) reads
  // the same file even if the link is repointed meanwhile.
  if (explicit !== null) return FacilityIndex.open(existsSync(explicit) ? realpathSync(explicit) : explicit);
  if (IS_COMPILED_BINARY) return openEmbeddedSample(options);
  if (!existsSync(BUNDLED_INDEX_PATH)) {
    throw new IndexOpenError(`the bundled sample index ${BUNDLED_INDEX_PATH} is not built yet: run \`bun run scripts/sample.ts ensure\` (or pass --index PATH)`);
  }
  return FacilityIndex.open(BUNDLED_INDEX_PATH);
}
