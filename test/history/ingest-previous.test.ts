import { Database } from 'bun:sqlite';
import { beforeAll, describe, expect, it } from 'bun:test';
import { copyFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { FacilityIndex, connectionOf } from '../../src/index/facility-index';
import { UnusableInputError } from '../../src/ingest/errors';
import { readPrevious } from '../../src/ingest/previous';
import { ReleaseOrderError } from '../../src/ingest/ingest';
import { toFormat12 } from '../support/format-12';
import { threeReleases, directDiff, facilityTuples, historyRowsOf, quietIngest, type ThreeReleases } from './releases';

let r: ThreeReleases;
// the generator's place table takes seconds to build on a loaded machine
beforeAll(async () => {
  r = await threeReleases();
}, 120_000);

describe('ingest --previous carries the release list and history forward', () => {
  it('history holds exactly the direct diff of each pair of releases: added, changed and removed facilities', () => {
    const tuples = r.plain.map(facilityTuples);
    for (const seq of [2, 3]) {
      const expected = directDiff(tuples[seq - 2]!, tuples[seq - 1]!);
      const rows = historyRowsOf(r.chained[2], seq);
      expect({ added: rows.added, changed: rows.changed, removed: rows.removed }).toEqual(expected);
      expect(rows.rescored).toEqual([]);
      expect(expected.changed.length).toBeGreaterThan(50);
    }
  });

  it("the generator's removals and additions are exactly the history's 'removed' and 'added' rows", () => {
    for (const seq of [2, 3] as const) {
      const m = r.manifests[seq - 2 as 0 | 1];
      const rows = historyRowsOf(r.chained[2], seq);
      expect(rows.removed).toEqual([...m.removed].sort());
      expect(rows.added).toEqual([...m.added].sort());
      expect(m.removed.length).toBeGreaterThan(0);
      expect(m.added.length).toBeGreaterThan(0);
    }
  });

  it('every new enforcement the generator made is a change to active_enforcement = 1 in that release', () => {
    const db = new Database(r.chained[2], { readonly: true });
    for (const seq of [2, 3] as const) {
      const started = r.manifests[seq - 2 as 0 | 1].enforcement_started;
      expect(started.length).toBeGreaterThan(0);
      for (const id of started) {
        const rows = db.query('SELECT seq, change, active_enforcement FROM history WHERE registry_id = ? AND seq <= ? ORDER BY seq DESC').all(id, seq) as { change: string; active_enforcement: number }[];
        expect(rows[0]).toEqual({ seq, change: 'changed', active_enforcement: 1 } as never);
        expect(rows[1]!.active_enforcement).toBe(0);
      }
    }
    db.close();
  });

  it('facilities that did not change add no rows: only changed ones (and their first-release baseline) are stored', () => {
    const tuples = r.plain.map(facilityTuples);
    const touched = new Set<string>();
    for (const seq of [2, 3]) {
      const d = directDiff(tuples[seq - 2]!, tuples[seq - 1]!);
      for (const id of [...d.added, ...d.changed, ...d.removed]) touched.add(id);
    }
    const db = new Database(r.chained[2], { readonly: true });
    const stored = new Set((db.query('SELECT DISTINCT registry_id FROM history').all() as { registry_id: string }[]).map((x) => x.registry_id));
    const total = (db.query('SELECT count(*) AS n FROM history').get() as { n: number }).n;
    db.close();
    expect([...stored].sort()).toEqual([...touched].sort());
    // far fewer rows than one per facility per release
    expect(total).toBeLessThan(tuples[0]!.size * 0.5);
  });

  it('every history row of a release carries the values of that release (and the baseline those of the first)', () => {
    const tuples = r.plain.map(facilityTuples);
    const db = new Database(r.chained[2], { readonly: true });
    const rows = db.query('SELECT * FROM history').all() as ({ registry_id: string; seq: number; change: string } & Record<string, number | null>)[];
    db.close();
    for (const { registry_id, seq, change, ...values } of rows) {
      if (change === 'removed') expect(Object.values(values).every((v) => v === null)).toBe(true);
      else expect(values).toEqual(tuples[seq - 1]!.get(registry_id)! as never);
    }
  });

  it('the index lists its releases oldest first with their dates, method and facility counts', () => {
    const ix = FacilityIndex.open(r.chained[2]);
    const plain = r.plain.map((p) => FacilityIndex.open(p));
    expect(ix.releases()).toEqual(
      plain.map((p, i) => ({ seq: i + 1, as_of: p.info.as_of, score_version: p.info.score_version, dataset_name: p.info.dataset_name, facility_count: p.info.facility_count })),
    );
    expect(ix.releases().map((x) => x.as_of)).toEqual(['2026-10-31', '2026-11-07', '2026-11-14']);
    [ix, ...plain].forEach((i) => i.close());
  });

  it('an index built without --previous is release 1 with no history rows', () => {
    const ix = FacilityIndex.open(r.plain[1]);
    expect(ix.releases()).toHaveLength(1);
    expect(ix.releases()[0]!.seq).toBe(1);
    expect((connectionOf(ix).query('SELECT count(*) AS n FROM history').get() as { n: number }).n).toBe(0);
    ix.close();
  });
});

describe('a release that does not move forward in time is refused', () => {
  it.each([
    ['older than', 0 as const],
    ['the same date as', 1 as const],
  ])('a file %s the previous latest release: ReleaseOrderError naming both dates, nothing written', async (words, fileIndex) => {
    const out = join(r.dir, `refused-${fileIndex}.sqlite`);
    const err = await quietIngest([r.files[fileIndex]], out, { previous: r.chained[1] }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(ReleaseOrderError);
    expect((err as Error).message).toContain(`${words} the latest release`);
    expect((err as Error).message).toContain('as of 2026-11-07');
    expect((err as Error).message).not.toContain('\n');
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(r.dir).filter((f) => f.startsWith(`refused-${fileIndex}`))).toEqual([]);
  });

  it('an explicit --as-of that goes back is refused the same way', async () => {
    const err = await quietIngest([r.files[2]], join(r.dir, 'back.sqlite'), { previous: r.chained[1], asOf: '2026-11-01' }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(ReleaseOrderError);
  });
});

describe('a change of score method between releases', () => {
  it("records unchanged facilities whose score moved as 'rescored', and only edited records as 'changed'", async () => {
    const base = FacilityIndex.open(r.chained[0]);
    const otherMethod = `${base.info.score_version}+method-b`;
    base.close();
    const out = join(r.dir, 'other-method.sqlite');
    await quietIngest([r.files[1]], out, { previous: r.chained[0], scoreVersion: otherMethod });
    const rows = historyRowsOf(out, 2);
    const sameMethod = historyRowsOf(r.chained[1], 2);
    const edited = new Set(r.manifests[0].changed);
    // the same facilities moved; those whose own record did not change are now 'rescored'
    expect([...rows.changed, ...rows.rescored].sort()).toEqual(sameMethod.changed);
    expect(rows.rescored.length).toBeGreaterThan(0);
    expect(rows.rescored.filter((id) => edited.has(id))).toEqual([]);
    expect(rows.changed.filter((id) => !edited.has(id))).toEqual([]);
    expect(rows.added).toEqual(sameMethod.added);
    expect(rows.removed).toEqual(sameMethod.removed);
    const ix = FacilityIndex.open(out);
    expect(ix.releases().map((x) => x.score_version)).toEqual([ix.releases()[0]!.score_version, otherMethod]);
    ix.close();
  });
});

describe('a previous index of the format before (12: site facts without the not-enough-data bit) and a new one of the current format', () => {
  it("the change of method finds the same 'rescored' and 'changed' facilities as between two current indexes", async () => {
    const before = join(r.dir, 'format-12.sqlite');
    copyFileSync(r.chained[0], before);
    toFormat12(before);
    const db = new Database(before, { readonly: true });
    expect((db.query("SELECT value FROM index_meta WHERE key = 'format'").get() as { value: string }).value).toBe('12');
    db.close();
    const base = readPrevious(before);
    expect(base.inputsKeys).toEqual(readPrevious(r.chained[0]).inputsKeys);
    const otherMethod = `${base.releases[base.releases.length - 1]!.score_version}+method-b`;
    const [fromBefore, fromCurrent] = [join(r.dir, 'method-b-from-format-12.sqlite'), join(r.dir, 'method-b-from-current.sqlite')];
    await quietIngest([r.files[1]], fromBefore, { previous: before, scoreVersion: otherMethod });
    await quietIngest([r.files[1]], fromCurrent, { previous: r.chained[0], scoreVersion: otherMethod });
    const [a, b] = [historyRowsOf(fromBefore, 2), historyRowsOf(fromCurrent, 2)];
    expect(a).toEqual(b);
    expect(a.rescored.length).toBeGreaterThan(0);
    expect(a.changed.length).toBeGreaterThan(0);
  });
});

describe('an index from before releases existed (format 2, no release or history table)', () => {
  it('is refused as --previous before the build starts, and nothing is written', async () => {
    const old = join(r.dir, 'format-2.sqlite');
    copyFileSync(r.chained[0], old);
    const db = new Database(old);
    db.exec("DROP TABLE history; DROP TABLE release; UPDATE index_meta SET value = '2' WHERE key = 'format'");
    db.close();
    const out = join(r.dir, 'after-format-2.sqlite');
    const err = await quietIngest([r.files[1]], out, { previous: old }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(UnusableInputError);
    expect((err as Error).message).toContain(`--previous ${old}: the index was built by a version too old to carry its history forward from`);
    expect(existsSync(out)).toBe(false);
  });
});
