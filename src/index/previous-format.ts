import { Database } from 'bun:sqlite';
import { existsSync } from 'node:fs';
import type { PreviousIndex } from './history-tables/carry-forward';
import type { Release } from './history-tables/model';
import { INDEX_FORMAT } from './schema';

/**
 * The index layouts `ingest --previous` reads: the current format and the one just before it, so the
 * release history of a served index survives the upgrade that changes the format. Nothing else reads
 * an older file (a server refuses it: ./schema.ts formatRefusal), and this reads only what carrying
 * the history forward needs: the release list, the history, the score columns of `facility` (the
 * same in both) and, when the score method changes, the stored inputs as value arrays named by
 * index_meta `inputs_keys` (the same in both; src/index/history-tables/carry-forward.ts).
 *
 * A layout is described by what differs between the two formats. When INDEX_FORMAT next changes,
 * LAYOUT_BEFORE takes CURRENT_LAYOUT's values and CURRENT_LAYOUT says what the new format changed.
 */
export type Layout = {
  format: string;
  /** facility.lat/lng: NOT NULL (rows without coordinates were rejected), or NULL for a facility without usable coordinates. */
  location: 'required' | 'nullable';
  /** Columns facility.completeness and facility.evidence (what a lookup shows beside the score). Not read by --previous, only checked. */
  beside: boolean;
  /** Columns facility.loc_accuracy_m and loc_method (how well the coordinates place it). Not read by --previous, only checked. */
  locationQuality: boolean;
};

// 13 gave facility.site_facts a bit (not enough data to judge), which --previous does not read: the tables are 12's
export const CURRENT_LAYOUT: Layout = { format: INDEX_FORMAT, location: 'nullable', beside: true, locationQuality: true };
export const LAYOUT_BEFORE: Layout = { format: '12', location: 'nullable', beside: true, locationQuality: true };

const READABLE = [LAYOUT_BEFORE, CURRENT_LAYOUT];
/** Tables both layouts have and --previous reads or checks. */
const COMMON_TABLES = ['release', 'history', 'facility_inputs', 'shared_detail', 'program_record'];

/** Thrown when a file cannot be a previous index; its message is one line, the path not included. */
export class PreviousFormatError extends Error {}

function refusal(found: string): string {
  const which = `format ${found}; --previous reads formats ${LAYOUT_BEFORE.format} and ${CURRENT_LAYOUT.format}`;
  if (Number(found) > Number(CURRENT_LAYOUT.format)) return `the index was built by a newer version: ingest with that version or a later one (${which})`;
  return `the index was built by a version too old to carry its history forward from: build without --previous, or carry it forward with a version in between first (${which})`;
}

function hasTable(db: Database, name: string): boolean {
  return db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== null;
}

/** What --previous needs of the file at `path`, read now so a wrong file fails before the build starts. */
export function readPreviousIndex(path: string): PreviousIndex {
  if (!existsSync(path)) throw new PreviousFormatError('index file not found');
  let db: Database;
  try {
    db = new Database(path, { readonly: true, strict: true });
  } catch (e) {
    throw new PreviousFormatError(`cannot open index (${(e as Error).message})`);
  }
  try {
    const meta = (key: string) => db.query<{ value: string }, [string]>('SELECT value FROM index_meta WHERE key = ?').get(key)?.value;
    let format: string | undefined;
    try {
      format = meta('format');
    } catch (e) {
      throw new PreviousFormatError(`not a facility index (${(e as Error).message})`);
    }
    if (format === undefined) throw new PreviousFormatError('not a facility index (index_meta has no format)');
    const layout = READABLE.find((l) => l.format === format);
    if (!layout) throw new PreviousFormatError(refusal(format));
    // a file that is not the layout its number says would fail in the middle of the build
    const column = (name: string) => db.query<{ notnull: number }, [string]>("SELECT \"notnull\" FROM pragma_table_info('facility') WHERE name = ?").get(name);
    const beside = column('completeness') !== null && column('evidence') !== null;
    const locationQuality = column('loc_accuracy_m') !== null && column('loc_method') !== null;
    if (!COMMON_TABLES.every((t) => hasTable(db, t)) || beside !== layout.beside || locationQuality !== layout.locationQuality || (column('lat')?.notnull === 1) !== (layout.location === 'required')) {
      throw new PreviousFormatError(`not a format-${format} index (its tables are not that layout's)`);
    }
    const keys = meta('inputs_keys');
    if (keys === undefined) throw new PreviousFormatError(`not a format-${format} index (inputs_keys missing)`);
    const releases = db.query<Release, []>('SELECT seq, as_of, score_version, dataset_name, facility_count FROM release ORDER BY seq').all();
    if (releases.length === 0) throw new PreviousFormatError('the index lists no release');
    return { path, releases, inputsKeys: JSON.parse(keys) as string[] };
  } finally {
    db.close();
  }
}
