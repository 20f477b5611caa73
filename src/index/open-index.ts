import { Database } from 'bun:sqlite';
import { existsSync } from 'node:fs';
import type { IndexInfo } from './model';
import { formatRefusal } from './schema';
import { attachSearchFile, SEARCH_SCHEMA } from './search-tables/file';

/** Thrown when an index file is missing, unreadable or of another format (schema.ts formatRefusal); the CLI prints it as one line. */
export class IndexOpenError extends Error {}

/**
 * Opens an index file read-only with the settings serving needs, its search file attached when it
 * has one (./search/file.ts). `searchTables` says where the search tables are, for the log lines.
 * Fails now (not at the first request) if the file is missing or cannot be opened.
 */
export function openIndexFile(path: string): { db: Database; searchTables: string; searchDamaged: boolean } {
  if (!existsSync(path)) throw new IndexOpenError(`index file not found: ${path}`);
  try {
    const db = new Database(path, { readonly: true, strict: true });
    // A national index's search tables are in a file beside it, attached first so the settings
    // below hold for both files.
    const search = attachSearchFile(db, path);
    // The file never changes under us (ingest writes a new file and renames it), so hold the
    // shared lock for good: without it lock/unlock syscalls are most of every lookup's time.
    db.exec('PRAGMA query_only = ON; PRAGMA mmap_size = 4294967296; PRAGMA locking_mode = EXCLUSIVE;');
    if (search.attached) db.exec(`PRAGMA ${SEARCH_SCHEMA}.mmap_size = 4294967296;`);
    return { db, searchTables: search.note, searchDamaged: search.damaged === true };
  } catch (e) {
    throw new IndexOpenError(`cannot open index ${path}: ${(e as Error).message}`);
  }
}

/**
 * What an index says about itself in `index_meta`, checked: its format (another one is refused
 * with formatRefusal's sentence), its dataset info and the keys of its stored inputs' values
 * (./inputs-codec.ts). Anything unreadable is an IndexOpenError.
 */
export function readIndexHeader(db: Database): { info: IndexInfo; inputsKeys: readonly string[] } {
  try {
    const meta = (key: string) => db.query<{ value: string }, [string]>('SELECT value FROM index_meta WHERE key = ?').get(key)?.value;
    const format = meta('format');
    if (format === undefined) throw new IndexOpenError('not a facility index (index_meta has no format)');
    const refusal = formatRefusal(format);
    if (refusal) throw new IndexOpenError(refusal);
    const info = meta('info');
    if (info === undefined) throw new IndexOpenError('index has no metadata');
    const keys = meta('inputs_keys');
    if (keys === undefined) throw new IndexOpenError('not a facility index (index_meta has no inputs_keys)');
    return { info: JSON.parse(info) as IndexInfo, inputsKeys: JSON.parse(keys) as string[] };
  } catch (e) {
    if (e instanceof IndexOpenError) throw e;
    throw new IndexOpenError(`not a facility index (${(e as Error).message})`);
  }
}
