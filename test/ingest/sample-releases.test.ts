import { afterAll, describe, expect, it } from 'bun:test';
import { Database } from 'bun:sqlite';
import { join } from 'node:path';
import { buildSample, SAMPLE } from '../../scripts/sample';
import { removeTempDirs, tempDir } from '../support/temp-dir';

/**
 * The bundled index (data/sample.sqlite, what `npm start` and the binary serve) holds two releases,
 * so a new user sees score changes and watchlist changes on first start. Read with plain SQLite.
 */
afterAll(() => removeTempDirs());

function read<T>(path: string, sql: string): T[] {
  const db = new Database(path, { readonly: true });
  try {
    return db.query(sql).all() as T[];
  } finally {
    db.close();
  }
}
type Moved = { registry_id: string; before: number; after: number; was_enforced: number; is_enforced: number };
const MOVED = `SELECT n.registry_id, p.overall_score AS before, n.overall_score AS after, p.active_enforcement AS was_enforced, n.active_enforcement AS is_enforced
  FROM history n JOIN history p ON p.registry_id = n.registry_id AND p.seq = 1 WHERE n.seq = 2 AND n.change = 'changed'`;

describe('the bundled sample index', () => {
  it('holds two releases a month apart, the earlier the sample rewound, both scored by one method', () => {
    const releases = read<{ as_of: string; score_version: string }>(SAMPLE.index, 'SELECT as_of, score_version FROM release ORDER BY seq');
    expect(releases.map((r) => r.as_of)).toEqual([SAMPLE.previousAsOf, SAMPLE.asOf]);
    expect(new Set(releases.map((r) => r.score_version)).size).toBe(1);
    expect(read(SAMPLE.index, "SELECT 1 FROM history WHERE change = 'rescored'")).toEqual([]);
  });

  it('changes some scores up and some down between them, starts some enforcement, and leaves most facilities as they were', () => {
    const moved = read<Moved>(SAMPLE.index, MOVED);
    const n = read<{ n: number }>(SAMPLE.index, 'SELECT count(*) AS n FROM facility')[0]!.n;
    expect(moved.filter((m) => m.after > m.before).length).toBeGreaterThan(0);
    expect(moved.filter((m) => m.after < m.before).length).toBeGreaterThan(0);
    expect(moved.filter((m) => m.is_enforced && !m.was_enforced).length).toBeGreaterThan(0);
    expect(moved.length).toBeLessThan(n / 4);
    // each changed facility's latest entry is the record served now
    const now = new Map(read<{ registry_id: string; overall_score: number }>(SAMPLE.index, 'SELECT registry_id, overall_score FROM facility').map((r) => [r.registry_id, r.overall_score]));
    expect(moved.filter((m) => now.get(m.registry_id) !== m.after)).toEqual([]);
  });

  it('is what the sample build makes now from the committed file (rebuild with `scripts/sample.ts build` after changing the rewind)', async () => {
    const fresh = join(tempDir('sample-build'), 'sample.sqlite');
    await buildSample(fresh);
    const all = 'SELECT * FROM history ORDER BY registry_id, seq';
    expect(read(fresh, all)).toEqual(read(SAMPLE.index, all));
    expect(read(fresh, 'SELECT * FROM release')).toEqual(read(SAMPLE.index, 'SELECT * FROM release'));
  }, 120_000);
});
