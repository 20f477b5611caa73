import { afterAll, describe, expect, it } from 'bun:test';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Database } from 'bun:sqlite';
import { cli, tempIndex } from '../support/process';

const { dir, indexPath } = tempIndex();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('--version as the check before switching an index', () => {
  it('exits 0 and names the dataset when FCS_INDEX opens', () => {
    const r = cli(['--version'], { FCS_INDEX: indexPath });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('dataset process test, as of 2026-11-01');
  });

  const corrupt = join(dir, 'corrupt.sqlite');
  writeFileSync(corrupt, Buffer.concat([Buffer.from('SQLite format 3\0'), Buffer.alloc(4096, 0x5a)]));
  const notIndex = join(dir, 'other.sqlite');
  new Database(notIndex).run('CREATE TABLE t (x)');
  const text = join(dir, 'notes.txt');
  writeFileSync(text, 'not a database\n');

  it.each([
    ['missing', join(dir, 'nope.sqlite')],
    ['corrupt', corrupt],
    ['a SQLite file that is not an index', notIndex],
    ['a text file', text],
  ])('exits 1 and says why when the index is %s', (_what, path) => {
    const r = cli(['--version'], { FCS_INDEX: path });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('dataset unavailable:');
  });
});
