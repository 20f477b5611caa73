import { describe, expect, it } from 'bun:test';
import { changesInRelease, changesOfIds } from '../../src/index/history-tables/release-changes';
import { memoryIndex, DEFAULT_ROWS } from '../helpers';
import { historyIndex } from '../support/history-index';
import { A, B, C, D, E, HISTORY, RELEASES, ROWS_3 } from '../support/release-fixture';
import { connectionOf } from '../../src/index/facility-index';

const index = historyIndex(ROWS_3, RELEASES, HISTORY);

describe('changesInRelease', () => {
  it("gives each change of a release with what it was before and why: a mere rescore is a change whose reason is 'method'", () => {
    // release 1 was scored by another method than release 2: A's and B's changes are data and method at once
    expect(changesInRelease(connectionOf(index), 2)).toEqual([
      { registry_id: A, fac_name: `TEST FACILITY ${A}`, as_of: '2026-10-08', previous_as_of: '2026-10-01', kind: 'changed', overall_score: 70, previous_score: 80, active_enforcement: false, previous_enforcement: false, score_method: 'fcs-2.0', reason: 'data_and_method' },
      { registry_id: B, fac_name: DEFAULT_ROWS[1]!.fac_name, as_of: '2026-10-08', previous_as_of: '2026-10-01', kind: 'changed', overall_score: 70, previous_score: 70, active_enforcement: true, previous_enforcement: false, score_method: 'fcs-2.0', reason: 'data_and_method' },
      { registry_id: C, fac_name: null, as_of: '2026-10-08', previous_as_of: '2026-10-01', kind: 'removed', overall_score: null, previous_score: 60, active_enforcement: null, previous_enforcement: false, score_method: 'fcs-2.0', reason: 'data' },
      { registry_id: D, fac_name: `TEST FACILITY ${D}`, as_of: '2026-10-08', previous_as_of: '2026-10-01', kind: 'changed', overall_score: 88, previous_score: 90, active_enforcement: false, previous_enforcement: false, score_method: 'fcs-2.0', reason: 'method' },
    ]);
  });

  it("a change within one method is the facility's own: reason 'data'", () => {
    expect(changesInRelease(connectionOf(index), 3).map((c) => [c.registry_id, c.reason])).toEqual([[A, 'data'], [D, 'data'], [E, 'data']]);
  });

  it('measures a change from the rescored value of the release before, and an addition from nothing', () => {
    const byId = Object.fromEntries(changesInRelease(connectionOf(index), 3).map((c) => [c.registry_id, c]));
    expect(Object.keys(byId).sort()).toEqual([A, D, E]);
    expect(byId[D]).toMatchObject({ kind: 'changed', previous_score: 88, overall_score: 80, previous_as_of: '2026-10-08' });
    expect(byId[E]).toMatchObject({ kind: 'added', previous_score: null, previous_as_of: null, previous_enforcement: null });
  });

  it('a release nobody changed in has no changes', () => {
    expect(changesInRelease(connectionOf(index), 4)).toEqual([]);
  });

  it('an index of one release (built without --previous) has no changes', () => {
    const single = memoryIndex(DEFAULT_ROWS, { as_of: '2026-09-01' });
    expect(single.releases().map((r) => r.as_of)).toEqual(['2026-09-01']);
    expect(changesInRelease(connectionOf(single), 1)).toEqual([]);
    expect(changesOfIds(connectionOf(single), [A], 0, 1)).toEqual([]);
  });
});

describe('changesOfIds', () => {
  it('gives only the asked IDs, in the asked releases, oldest release first', () => {
    const got = changesOfIds(connectionOf(index), [A, C], 1, 3).map((c) => [c.registry_id, c.as_of, c.kind]);
    expect(got).toEqual([
      [A, '2026-10-08', 'changed'],
      [C, '2026-10-08', 'removed'],
      [A, '2026-10-15', 'changed'],
    ]);
    expect(changesOfIds(connectionOf(index), [A, C], 2, 3).map((c) => c.registry_id)).toEqual([A]);
  });

  it('the test index carries the three releases, oldest first', () => {
    expect(index.releases().map(({ seq, as_of }) => ({ seq, as_of }))).toEqual(RELEASES.map(({ seq, as_of }) => ({ seq, as_of })));
  });
});
