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
import { toFormat11 } from '../support/format-11';
import { cli } from '../support/process';
import { removeTempDirs, tempDir } from '../support/temp-dir';

let current: string;
let format11: string;
let dir: string;
const OLDER = (f: string) => `the index was built by an older version: rebuild it with \`ingest\` (format ${f}; this version reads format 12)`;
const NEWER = (f: string) => `the index was built by a newer version: serve it with that version or a later one (format ${f}; this version reads format 12)`;

beforeAll(() => {
  dir = tempDir('readable-formats');
  current = join(dir, 'current.sqlite');
  const w = new IndexWriter(current);
  for (const r of DEFAULT_ROWS) w.add(r);
  w.finish({ dataset_name: 'test fixture', as_of: '2026-11-01', score_version: 'test', fictitious: true, built_at: new Date(FIXED_NOW).toISOString(), sources: [], row_counts: { accepted: DEFAULT_ROWS.length } });
  format11 = join(dir, 'format-11.sqlite');
  copyFileSync(current, format11);
  toFormat11(format11);
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
  it('the current format is 12; an index of it opens and answers a Starter+ lookup', () => {
    expect(INDEX_FORMAT).toBe('12');
    const ix = FacilityIndex.open(current);
    const id = DEFAULT_ROWS[0]!.registry_id;
    expect(lookupFacility(ix, id, 'starter')).toMatchObject({ registry_id: id, explanation: expect.any(Array) });
    ix.close();
  });

  it.each([
    ['the format before (a real format-11 file)', () => format11, OLDER('11')],
    ['format 2', () => markedAs('2'), OLDER('2')],
    ['format 13', () => markedAs('13'), NEWER('13')],
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

  it('a file numbered 12 that lacks a table of the layout is refused as not an index, not failed at a lookup', () => {
    const path = markedAs(INDEX_FORMAT);
    const db = new Database(path);
    db.run('DROP TABLE shared_detail');
    db.close();
    expect(() => FacilityIndex.open(path)).toThrow(new IndexOpenError('not a facility index (no such table: shared_detail)'));
  });

  it('`serve` of a format-11 index exits 1 with the sentence as its one line, no stack trace', () => {
    const r = cli(['serve', '--index', format11, '--port', '0', '--state-dir', tempDir('readable-formats-state')]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(`facility-score serve: ${OLDER('11')}`);
    expect(r.stdout).not.toContain('listening');
  });

  it.each([
    ['2', OLDER('2')],
    ['11', OLDER('11')],
    ['13', NEWER('13')],
  ])('`--version` with an index of format %s exits 1 and says the sentence, no stack trace', (format, sentence) => {
    const r = cli(['--version'], { FCS_INDEX: format === '11' ? format11 : markedAs(format) });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`dataset unavailable: ${sentence}\n`);
    expect(`${r.stdout}${r.stderr}`).not.toMatch(/\n\s+at /);
  });
});

describe('`ingest --previous` reads the current format and the one before it', () => {
  it('a format-11 file (no location quality columns): its releases and its inputs_keys', () => {
    const p = readPrevious(format11);
    expect(p.releases).toEqual([{ seq: 1, as_of: '2026-11-01', score_version: 'test', dataset_name: 'test fixture', facility_count: DEFAULT_ROWS.length }]);
    expect(p.inputsKeys).toEqual(STORED_INPUT_KEYS);
  });

  it('a current file: its releases and its inputs_keys', () => {
    const p = readPrevious(current);
    expect(p.releases.map((r) => r.as_of)).toEqual(['2026-11-01']);
    expect(p.inputsKeys).toEqual(STORED_INPUT_KEYS);
  });

  it.each([
    ['10', 'the index was built by a version too old to carry its history forward from: build without --previous, or carry it forward with a version in between first (format 10; --previous reads formats 11 and 12)'],
    ['13', 'the index was built by a newer version: ingest with that version or a later one (format 13; --previous reads formats 11 and 12)'],
  ])('format %s is refused before the build starts, in one line', (format, sentence) => {
    const path = markedAs(format);
    expect(() => readPrevious(path)).toThrow(new UnusableInputError(`--previous ${path}: ${sentence}`));
  });

  it('a file numbered 11 that is not the format-11 layout is refused, not read half-way', () => {
    const path = markedAs('11');
    expect(() => readPrevious(path)).toThrow(new UnusableInputError(`--previous ${path}: not a format-11 index (its tables are not that layout's)`));
  });
});
