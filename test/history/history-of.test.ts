import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { join } from 'node:path';
import { FacilityIndex } from '../../src/index/facility-index';
import type { HistoryEntry } from '../../src/index/history-tables/model';
import { facility } from '../helpers';
import { historyIndex } from '../support/history-index';
import { threeReleases, facilityTuples, historyRowsOf, quietIngest, type ScoreTuple, type ThreeReleases } from './releases';

let r: ThreeReleases;
let ix: FacilityIndex;
let tuples: Map<string, ScoreTuple>[];
// the generator's place table takes seconds to build on a loaded machine
beforeAll(async () => {
  r = await threeReleases();
  ix = FacilityIndex.open(r.chained[2]);
  tuples = r.plain.map(facilityTuples);
}, 120_000);
afterAll(() => ix.close());

const AS_OF = ['2026-10-31', '2026-11-07', '2026-11-14'];
const entryOf = (seq: number, change: HistoryEntry['change'], t: ScoreTuple | undefined): HistoryEntry => ({
  seq,
  as_of: AS_OF[seq - 1]!,
  score_version: ix.info.score_version,
  change,
  overall_score: t?.overall_score ?? null,
  violation_frequency: t?.violation_frequency ?? null,
  penalty_severity: t?.penalty_severity ?? null,
  recency: t?.recency ?? null,
  repeat_offender: t?.repeat_offender ?? null,
  active_enforcement: t ? t.active_enforcement === 1 : null,
});

describe('FacilityIndex.historyOf', () => {
  it('a facility changed in both later releases: three entries, newest first, each with its release\'s values', () => {
    const second = historyRowsOf(r.chained[2], 2).changed;
    const twice = historyRowsOf(r.chained[2], 3).changed.filter((id) => second.includes(id));
    expect(twice.length).toBeGreaterThan(0);
    for (const id of twice) {
      expect(ix.historyOf(id)).toEqual([entryOf(3, 'changed', tuples[2]!.get(id)), entryOf(2, 'changed', tuples[1]!.get(id)), entryOf(1, 'added', tuples[0]!.get(id))]);
    }
  });

  it('a facility that never changed: one entry, added in the first release with its current values', () => {
    const stored = new Set([2, 3].flatMap((s) => Object.values(historyRowsOf(r.chained[2], s)).flat()));
    const id = [...tuples[2]!.keys()].find((x) => !stored.has(x))!;
    expect(ix.historyOf(id)).toEqual([entryOf(1, 'added', tuples[2]!.get(id))]);
  });

  it('a facility removed in the last release: newest entry removed (no values), then its earlier state; it is not in the index', () => {
    const id = r.manifests[1].removed[0]!;
    const h = ix.historyOf(id);
    expect(h[0]).toEqual(entryOf(3, 'removed', undefined));
    expect(h[1]).toMatchObject({ overall_score: tuples[1]!.get(id)!.overall_score });
    expect(ix.getSummary(id)).toBeNull();
  });

  it('a facility added in the last release: one entry, added there', () => {
    const id = r.manifests[1].added[0]!;
    expect(ix.historyOf(id)).toEqual([entryOf(3, 'added', tuples[2]!.get(id))]);
  });

  it('an ID never in any release has no history', () => {
    expect(ix.historyOf('990999999999')).toEqual([]);
  });
});

describe('score_change', () => {
  it('agrees with the history: the score and date of the entry before the latest score change, else null', () => {
    let changes = 0;
    for (const id of tuples[2]!.keys()) {
      const h = ix.historyOf(id);
      const latest = h.findIndex((e, i) => e.change === 'changed' && h[i + 1] && h[i + 1]!.overall_score !== e.overall_score);
      // one score method throughout: every change is the facility's own
      const expected = latest < 0 ? null : { previous_score: h[latest + 1]!.overall_score!, previous_as_of: h[latest + 1]!.as_of, reason: 'data' as const };
      expect(ix.scoreChangeOf(id)).toEqual(expected);
      if (expected) changes++;
    }
    expect(changes).toBeGreaterThan(20);
  });

  it('for a facility whose score moved in the last release: its score in the release before, dated when it got that score', () => {
    const moved = [...tuples[2]!.keys()].filter((id) => tuples[1]!.has(id) && tuples[1]!.get(id)!.overall_score !== tuples[2]!.get(id)!.overall_score);
    expect(moved.length).toBeGreaterThan(0);
    const same = (a?: ScoreTuple, b?: ScoreTuple) => JSON.stringify(a) === JSON.stringify(b);
    let sinceFirst = 0;
    for (const id of moved) {
      const heldSinceFirst = same(tuples[0]!.get(id), tuples[1]!.get(id));
      if (heldSinceFirst) sinceFirst++;
      expect(ix.scoreChangeOf(id)).toEqual({ previous_score: tuples[1]!.get(id)!.overall_score, previous_as_of: heldSinceFirst ? '2026-10-31' : '2026-11-07', reason: 'data' });
    }
    expect(sinceFirst).toBeGreaterThan(0);
    expect(sinceFirst).toBeLessThan(moved.length);
  });

  it('many at once (portfolio items, one statement) gives the same as one by one', () => {
    const ids = [...tuples[2]!.keys()].slice(0, 500);
    const many = ix.getBriefsWithPeers(ids);
    for (const id of ids) expect(many.get(id)!.score_change).toEqual(ix.scoreChangeOf(id));
  });

  it("marks a facility only rescored by a new score method with reason 'method', and is null for changes scored by an earlier method", async () => {
    const out = join(r.dir, 'score-change-method-b.sqlite');
    const otherMethod = `${ix.info.score_version}+method-b`;
    await quietIngest([r.files[2]], out, { previous: r.chained[1], scoreVersion: otherMethod });
    const b = FacilityIndex.open(out);
    const rows = historyRowsOf(out, 3);
    expect(rows.rescored.length).toBeGreaterThan(0);
    let moved = 0;
    for (const id of rows.rescored) {
      const [now, before] = b.historyOf(id);
      const expected = now!.overall_score === before!.overall_score ? null : { previous_score: before!.overall_score, previous_as_of: before!.as_of, reason: 'method' };
      expect(b.scoreChangeOf(id)).toEqual(expected as never);
      if (expected) moved++;
    }
    expect(moved).toBeGreaterThan(0);
    // a facility whose last score change was under the old method has none under the new one
    const oldOnly = historyRowsOf(out, 2).changed.filter((id) => b.getSummary(id) && b.historyOf(id)[0]!.seq === 2);
    expect(oldOnly.length).toBeGreaterThan(0);
    for (const id of oldOnly) expect(b.scoreChangeOf(id)).toBeNull();
    b.close();
  });
});

describe('score_change (the rule on its own, on small release stories)', () => {
  const ID = '990000000001';
  const e = (seq: number, change: HistoryEntry['change'], overall: number | null, version = 'm1') => ({ seq, change, overall, version });
  type Story = ReturnType<typeof e>[];
  // Entries newest first, as /history lists them; the index's score method is the newest entry's.
  function scoreChangeIn(entries: Story, inIndex = true) {
    const current = entries[0]!.version;
    const version = (v: string) => (v === current ? 'test' : v); // memoryIndex scores with method 'test'
    const releases = [...entries].reverse().map((x) => ({ seq: x.seq, as_of: `2026-11-0${x.seq}`, score_version: version(x.version) }));
    const rows = inIndex ? [facility({ registry_id: ID, overall_score: entries[0]!.overall! })] : [facility({ registry_id: '990000000009' })];
    const index = historyIndex(rows, releases, entries.map((x) => ({ registry_id: ID, seq: x.seq, change: x.change, score: x.overall })));
    return { one: index.scoreChangeOf(ID), many: index.getBriefsWithPeers([ID]).get(ID)?.score_change ?? null };
  }
  it.each([
    ['a score change', [e(2, 'changed', 70), e(1, 'added', 80)], { previous_score: 80, previous_as_of: '2026-11-01', reason: 'data' }],
    ['a component-only change after a score change', [e(3, 'changed', 70), e(2, 'changed', 70), e(1, 'added', 80)], { previous_score: 80, previous_as_of: '2026-11-01', reason: 'data' }],
    ['two score changes: the later one', [e(3, 'changed', 50), e(2, 'changed', 70), e(1, 'added', 80)], { previous_score: 70, previous_as_of: '2026-11-02', reason: 'data' }],
    ['only the first appearance', [e(1, 'added', 80)], null],
    ['a re-addition after a removal', [e(3, 'added', 60), e(2, 'removed', null), e(1, 'added', 80)], null],
    ['a score change after a re-addition', [e(4, 'changed', 50), e(3, 'added', 60), e(2, 'removed', null), e(1, 'added', 80)], { previous_score: 60, previous_as_of: '2026-11-03', reason: 'data' }],
    ['a rescoring: the change is the method\'s', [e(2, 'rescored', 75, 'm2'), e(1, 'added', 80)], { previous_score: 80, previous_as_of: '2026-11-01', reason: 'method' }],
    ['a rescoring that left the overall score as it was', [e(2, 'rescored', 80, 'm2'), e(1, 'added', 80)], null],
    ['a change whose entry before is of another method: data and method at once', [e(2, 'changed', 60, 'm2'), e(1, 'added', 80)], { previous_score: 80, previous_as_of: '2026-11-01', reason: 'data_and_method' }],
    ['a component-only change after a rescoring: still the method\'s', [e(3, 'changed', 75, 'm2'), e(2, 'rescored', 75, 'm2'), e(1, 'added', 80)], { previous_score: 80, previous_as_of: '2026-11-01', reason: 'method' }],
    ['a score change after a rescoring: the facility\'s own', [e(3, 'changed', 70, 'm2'), e(2, 'rescored', 75, 'm2'), e(1, 'added', 80)], { previous_score: 75, previous_as_of: '2026-11-02', reason: 'data' }],
    ['a change under an earlier method is not shown (the new method left the score as it was)', [e(3, 'changed', 70, 'm2'), e(2, 'changed', 70), e(1, 'added', 80)], null],
  ])('%s', (_what, entries, expected) => {
    expect(scoreChangeIn(entries as Story)).toEqual({ one: expected, many: expected } as never);
  });

  it('a facility no longer in the index has none', () => {
    expect(scoreChangeIn([e(3, 'removed', null), e(2, 'changed', 70), e(1, 'added', 80)], false)).toEqual({ one: null, many: null });
  });
});
