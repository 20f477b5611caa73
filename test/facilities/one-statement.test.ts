import type { Database } from 'bun:sqlite';
import { describe, expect, it } from 'bun:test';
import { lookupFacility } from '../../src/facilities/service';
import { connectionOf, FacilityIndex } from '../../src/index/facility-index';
import { lookupPortfolio } from '../../src/portfolio/service';
import { TIER_RULES, TIERS } from '../../src/tiers';
import { facility, memoryIndex } from '../helpers';
import { addHistory } from '../support/history-index';

// The lookup is the hot path: its row, stored detail, data_completeness id and (Starter+) evidence
// come from one SQL statement; the score change adds one keyed read of the facility's history
// entries, only on an index that has history rows. A portfolio's whole batch is one statement, plus
// one for all its score changes likewise.

const MOVED = '990000000001';
const ROWS = [facility({ registry_id: MOVED, overall_score: 70 }), facility({ registry_id: '990000000002', overall_score: 60 })];

/** An index over `db` whose every prepared statement counts its runs in `runs.n`. */
function counted(db: Database): { index: FacilityIndex; runs: { n: number } } {
  const runs = { n: 0 };
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    const stmt = prepare(sql);
    const all = stmt.all.bind(stmt);
    const get = stmt.get.bind(stmt);
    stmt.all = ((...args: unknown[]) => (runs.n++, all(...(args as [])))) as typeof stmt.all;
    stmt.get = ((...args: unknown[]) => (runs.n++, get(...(args as [])))) as typeof stmt.get;
    return stmt;
  }) as typeof db.prepare;
  return { index: new FacilityIndex(db), runs };
}

function withHistory(): Database {
  const db = connectionOf(memoryIndex(ROWS, { as_of: '2026-11-08' }));
  addHistory(db, [{ seq: 1, as_of: '2026-11-01', score_version: 'test' }, { seq: 2, as_of: '2026-11-08', score_version: 'test' }], [
    { registry_id: MOVED, seq: 1, change: 'added', score: 80 },
    { registry_id: MOVED, seq: 2, change: 'changed', score: 70 },
  ]);
  return db;
}

describe.each([
  ['a first release (no history rows)', () => connectionOf(memoryIndex(ROWS)), null, 1],
  ['an index with history rows', withHistory, { previous_score: 80, previous_as_of: '2026-11-01', reason: 'data' }, 2],
] as const)('%s', (_what, database, change, statements) => {
  it.each(TIERS)('%s tier: a lookup runs its statements (once its detail and peers are held)', (tier) => {
    const { index, runs } = counted(database());
    lookupFacility(index, MOVED, tier, true); // first sight of its shared detail and peer group
    runs.n = 0;
    const record = lookupFacility(index, MOVED, tier, true);
    expect(runs.n).toBe(statements);
    // asked for, Starter+ read its evidence with the row; Free's is redacted
    expect(record.evidence).toEqual(TIER_RULES[tier].fullComponents ? expect.objectContaining({ quarter_history: expect.any(Object) }) : { redacted: true, message: expect.any(String) });
    expect(record.score_change).toEqual(change);
    expect(record.data_completeness?.source_format).toBe('echo-exporter');
  });

  it('a portfolio runs one statement, and one more for all score changes when there is history', () => {
    const { index, runs } = counted(database());
    runs.n = 0;
    const result = lookupPortfolio(index, [MOVED, '990000000002', '990000000404']);
    expect(runs.n).toBe(statements);
    expect(result.results.map((r) => [r.registry_id, r.score_change])).toEqual([[MOVED, change], ['990000000002', null]]);
    expect(result.not_found).toEqual(['990000000404']);
  });
});
