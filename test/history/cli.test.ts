import { beforeAll, describe, expect, it } from 'bun:test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { cli } from '../support/process';
import { threeReleases, type ThreeReleases } from './releases';

let r: ThreeReleases;
// the generator's place table takes seconds to build on a loaded machine
beforeAll(async () => {
  r = await threeReleases();
}, 120_000);

describe('facility-score ingest --previous', () => {
  it('builds the next release and says what changed in one summary line', () => {
    const out = join(r.dir, 'cli-release-3.sqlite');
    const p = cli(['ingest', r.files[2], '--previous', r.chained[1], '--out', out, '--threads', '1']);
    expect(p.code).toBe(0);
    const c = r.summaries[2]!.release.changes;
    expect(p.stdout).toContain(`release   3 of this index's history: ${c.added} added, ${c.changed} changed, ${c.removed} removed, 0 rescored since the previous release`);
    expect(existsSync(out)).toBe(true);
  });

  it('refuses a release that is not newer with exactly one line on stderr and exit 1, writing nothing', () => {
    const out = join(r.dir, 'cli-refused.sqlite');
    const p = cli(['ingest', r.files[1], '--previous', r.chained[2], '--out', out, '--threads', '1']);
    expect(p.code).toBe(1);
    const lines = p.stderr.split('\n').filter((l) => l.trim() !== '');
    expect(lines).toEqual([
      `facility-score ingest: refused: this release is as of 2026-11-07, older than the latest release of ${r.chained[2]} (as of 2026-11-14); ` +
        'a new release must describe a later date (check the file, or --as-of); nothing was written',
    ]);
    expect(existsSync(out)).toBe(false);
  });

  it('a --previous that does not exist is a usage error (exit 2)', () => {
    const p = cli(['ingest', r.files[1], '--previous', join(r.dir, 'nope.sqlite'), '--out', join(r.dir, 'x.sqlite')]);
    expect(p.code).toBe(2);
    expect(p.stderr).toContain('--previous');
  });
});
