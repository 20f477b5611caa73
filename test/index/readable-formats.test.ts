import { Database } from 'bun:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { FacilityIndex, IndexOpenError } from '../../src/index/facility-index';
import { IndexWriter } from '../../src/index/index-writer';
import { INDEX_FORMAT, READABLE_FORMATS } from '../../src/index/schema';
import { DEFAULT_ROWS, FIXED_NOW } from '../helpers';
import { removeTempDirs, tempDir } from '../support/temp-dir';

let current: string;
let dir: string;

beforeAll(() => {
  dir = tempDir('readable-formats');
  current = join(dir, 'current.sqlite');
  const w = new IndexWriter(current);
  for (const r of DEFAULT_ROWS) w.add(r);
  w.finish({ dataset_name: 'test fixture', as_of: '2026-11-01', score_version: 'test', fictitious: true, built_at: new Date(FIXED_NOW).toISOString(), sources: [], row_counts: { accepted: DEFAULT_ROWS.length } });
});

afterAll(removeTempDirs);

/** A copy of the current index whose metadata names `format`. */
function markedAs(format: string): string {
  const path = join(dir, `format-${format}.sqlite`);
  copyFileSync(current, path);
  const db = new Database(path);
  db.run("UPDATE index_meta SET value = ? WHERE key = 'format'", [format]);
  db.close();
  return path;
}

describe('which index formats a server opens', () => {
  it('every format from 2 to the current one, none left out when a new one is added (format 8 once was)', () => {
    const all = Array.from({ length: Number(INDEX_FORMAT) - 1 }, (_, i) => String(i + 2));
    expect([...READABLE_FORMATS]).toEqual(all);
  });

  it.each(['8', '9'])('an index marked format %s opens and answers a lookup', (format) => {
    const ix = FacilityIndex.open(markedAs(format));
    expect(ix.getSummary(DEFAULT_ROWS[0]!.registry_id)?.registry_id).toBe(DEFAULT_ROWS[0]!.registry_id);
    ix.close();
  });

  it.each(['1', String(Number(INDEX_FORMAT) + 1)])('an index marked format %s is refused with one line naming both formats', (format) => {
    expect(() => FacilityIndex.open(markedAs(format))).toThrow(new IndexOpenError(`index format ${format}, expected ${INDEX_FORMAT}`));
  });
});
