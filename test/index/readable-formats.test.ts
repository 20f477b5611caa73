import { Database } from 'bun:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { lookupFacility } from '../../src/facilities/service';
import { FacilityIndex, IndexOpenError } from '../../src/index/facility-index';
import { IndexWriter } from '../../src/index/index-writer';
import { UnusableInputError } from '../../src/ingest/errors';
import { readPrevious } from '../../src/ingest/previous';
import { STORED_INPUT_KEYS } from '../../src/index/inputs-codec';
import { INDEX_FORMAT } from '../../src/index/schema';
import { DEFAULT_ROWS, FIXED_NOW } from '../helpers';
import { toFormat11, toFormat12 } from '../support/format-12';
import { cli } from '../support/process';
import { removeTempDirs, tempDir } from '../support/temp-dir';

let current: string;
let format12: string;
let dir: string;
const OLDER = (f: string) => `the index was built by an older version: rebuild it with \`ingest\` (format ${f}; this version reads format 13)`;
const NEWER = (f: string) => `the index was built by a newer version: serve it with that version or a later one (format ${f}; this version reads format 13)`;

beforeAll(() => {
  dir = tempDir('readable-formats');
  current = join(dir, 'current.sqlite');
  const w = new IndexWriter(current);
  for (const r of DEFAULT_ROWS) w.add(r);
  w.finish({ dataset_name: 'test fixture', as_of: '2026-11-01', score_version: 'test', fictitious: true, built_at: new Date(FIXED_NOW).toISOString(), sources: [], row_counts: { accepted: DEFAULT_ROWS.length } });
  format12 = join(dir, 'format-12.sqlite');
  copyFileSync(current, format12);
  toFormat12(format12);
});

afterAll(removeTempDirs);

/** A copy of the current index whose metadata names `format` (only the number differs). */
let copies = 0;
function markedAs(format: string): string {
  const path = join(dir, `marked-${format}-${++copies}.sqlite`);
  copyFileSync(current, path);
  const db = new Database(path);
  db.run("UPDATE index_meta SET value = ? WHERE key = 'format'", [format]);
  db.close();
  return path;
}

describe('a server reads exactly the current index format', () => {
  it('the current format is 13; an index of it opens and answers a Starter+ lookup', () => {
    expect(INDEX_FORMAT).toBe('13');
    const ix = FacilityIndex.open(current);
    const id = DEFAULT_ROWS[0]!.registry_id;
    expect(lookupFacility(ix, id, 'starter')).toMatchObject({ registry_id: id, explanation: expect.any(Array) });
    ix.close();
  });

  it.each([
    ['the format before (a real format-12 file)', () => format12, OLDER('12')],
    ['format 2', () => markedAs('2'), OLDER('2')],
    ['format 14', () => markedAs('14'), NEWER('14')],
  ])('%s is refused at open with one sentence', (_what, path, sentence) => {
    expect(() => FacilityIndex.open(path())).toThrow(new IndexOpenError(sentence));
  });

  it('an index whose metadata lists no inputs_keys is refused, so stored values are never read by guessed keys', () => {
    const path = markedAs(INDEX_FORMAT);
    const db = new Database(path);
    db.run("DELETE FROM index_meta WHERE key = 'inputs_keys'");
    db.close();
    expect(() => FacilityIndex.open(path)).toThrow(new IndexOpenError('not a facility index (index_meta has no inputs_keys)'));
  });

  it('a file numbered 13 that lacks a table of the layout is refused as not an index, not failed at a lookup', () => {
    const path = markedAs(INDEX_FORMAT);
    const db = new Database(path);
    db.run('DROP TABLE shared_detail');
    db.close();
    expect(() => FacilityIndex.open(path)).toThrow(new IndexOpenError('not a facility index (no such table: shared_detail)'));
  });

  it('`serve` of a format-12 index exits 1 with the sentence as its one line, no stack trace', () => {
    const r = cli(['serve', '--index', format12, '--port', '0', '--state-dir', tempDir('readable-formats-state')]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(`facility-score serve: ${OLDER('12')}`);
    expect(r.stdout).not.toContain('listening');
  });

  it.each([
    ['2', OLDER('2')],
    ['12', OLDER('12')],
    ['14', NEWER('14')],
  ])('`--version` with an index of format %s exits 1 and says the sentence, no stack trace', (format, sentence) => {
    const r = cli(['--version'], { FCS_INDEX: format === '12' ? format12 : markedAs(format) });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`dataset unavailable: ${sentence}\n`);
    expect(`${r.stdout}${r.stderr}`).not.toMatch(/\n\s+at /);
  });
});

describe('`ingest --previous` reads the current format and the one before it', () => {
  it('a format-12 file (site facts without the not-enough-data bit): its releases and its inputs_keys', () => {
    const p = readPrevious(format12);
    expect(p.releases).toEqual([{ seq: 1, as_of: '2026-11-01', score_version: 'test', dataset_name: 'test fixture', facility_count: DEFAULT_ROWS.length }]);
    expect(p.inputsKeys).toEqual(STORED_INPUT_KEYS);
  });

  it('a current file: its releases and its inputs_keys', () => {
    const p = readPrevious(current);
    expect(p.releases.map((r) => r.as_of)).toEqual(['2026-11-01']);
    expect(p.inputsKeys).toEqual(STORED_INPUT_KEYS);
  });

  it.each([
    ['11', 'the index was built by a version too old to carry its history forward from: build without --previous, or carry it forward with a version in between first (format 11; --previous reads formats 12 and 13)'],
    ['14', 'the index was built by a newer version: ingest with that version or a later one (format 14; --previous reads formats 12 and 13)'],
  ])('format %s is refused before the build starts, in one line', (format, sentence) => {
    const path = markedAs(format);
    expect(() => readPrevious(path)).toThrow(new UnusableInputError(`--previous ${path}: ${sentence}`));
  });

  it('a file numbered 12 that is not the format-12 layout (format 11\'s tables) is refused, not read half-way', () => {
    const path = markedAs('12');
    toFormat11(path);
    const db = new Database(path);
    db.run("UPDATE index_meta SET value = '12' WHERE key = 'format'");
    db.close();
    expect(() => readPrevious(path)).toThrow(new UnusableInputError(`--previous ${path}: not a format-12 index (its tables are not that layout's)`));
  });
});
