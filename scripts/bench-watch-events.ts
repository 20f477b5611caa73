/**
 * Figure: computing the webhook events of one weekly release for 10,000 watched IDs.
 * Builds a national-size history (3.2M facilities added in release 1, 2% of them changed in release 2;
 * fictitious IDs) in a temp file, then times changesInRelease + eventsOfRelease for watchlists
 * holding 10,000 IDs (what emitReleaseEvents does: the changes of the watched IDs only, then the
 * rules), against a baseline measured in the same run: reading the release's history rows alone.
 * Each case runs twice: the first on a cold page cache, the second warm. Usage: npx bun scripts/bench-watch-events.ts [--facilities 3200000] [--dir /tmp]
 */
import { Database } from 'bun:sqlite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { changesInReleaseFor } from '../src/index/history-tables/release-changes';
import { eventsOfRelease } from '../src/watchlists/webhooks/release-events';
import type { WatchlistRecord } from '../src/watchlists/model';

const { values } = parseArgs({ options: { facilities: { type: 'string', default: '3200000' }, dir: { type: 'string', default: tmpdir() } } });
const n = Number(values.facilities);
const dir = mkdtempSync(join(values.dir!, 'fcs-bench-watch-'));
const db = new Database(join(dir, 'index.sqlite'), { create: true, strict: true });
db.exec(`PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;
CREATE TABLE facility (registry_id TEXT PRIMARY KEY NOT NULL, fac_name TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE release (seq INTEGER PRIMARY KEY, as_of TEXT NOT NULL, score_version TEXT NOT NULL, dataset_name TEXT NOT NULL, facility_count INTEGER NOT NULL);
CREATE TABLE history (registry_id TEXT NOT NULL, seq INTEGER NOT NULL, change TEXT NOT NULL, overall_score INTEGER,
  violation_frequency INTEGER, penalty_severity INTEGER, recency INTEGER, repeat_offender INTEGER, active_enforcement INTEGER,
  PRIMARY KEY (registry_id, seq)) WITHOUT ROWID;`);
const id = (i: number) => String(990_000_000_000 + i);
const changed = (i: number) => i % 50 === 7; // 2%
const t0 = performance.now();
db.transaction(() => {
  db.prepare("INSERT INTO release VALUES (1, '2026-10-01', 'fcs-1.0', 'bench', ?), (2, '2026-10-08', 'fcs-1.0', 'bench', ?)").run(n, n);
  const f = db.prepare('INSERT INTO facility VALUES (?, ?)');
  const h = db.prepare('INSERT INTO history VALUES (?, ?, ?, ?, 10, 20, 20, 10, ?)');
  for (let i = 0; i < n; i++) {
    f.run(id(i), `BENCH FACILITY ${i}`);
    h.run(id(i), 1, 'added', 80, 0);
    if (changed(i)) h.run(id(i), 2, 'changed', 70 - (i % 20), i % 3 === 0 ? 1 : 0);
  }
})();
db.exec('CREATE INDEX history_by_seq ON history(seq, registry_id)');
console.log(`built ${n.toLocaleString()} facilities, ${Math.round(n / 50).toLocaleString()} changed in release 2, in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

function lists(watched: string[], per: number): WatchlistRecord[] {
  const out: WatchlistRecord[] = [];
  for (let i = 0; i < watched.length; i += per) {
    out.push({ id: `wl_${String(i).padStart(16, '0')}`, account_id: 'acct_bench', name: 'bench', registry_ids: watched.slice(i, i + per), rule: null, webhook_url: 'https://hooks.example.com/x', webhook_secret: 'whsec_x', base_as_of: '2026-10-01', created_at: '', updated_at: '' });
  }
  return out;
}

function time<T>(fn: () => T): { ms: number; out: T } {
  const s = performance.now();
  const out = fn();
  return { ms: performance.now() - s, out };
}

const random10k = Array.from({ length: 10_000 }, (_, k) => id(Math.floor((k * 2_654_435_761) % n)));
const changed10k = Array.from({ length: 10_000 }, (_, k) => id(k * 50 + 7));
const release = { seq: 2, as_of: '2026-10-08' };
const baseline = time(() => db.query('SELECT registry_id, overall_score FROM history WHERE seq = 2').all());
console.log(`baseline: reading the release's ${baseline.out.length.toLocaleString()} history rows took ${baseline.ms.toFixed(0)} ms`);
for (const [label, watched] of [['10,000 random IDs (2% changed)', random10k], ['10,000 IDs all changed', changed10k]] as const) {
  for (const per of [10_000, 1_000]) {
    for (const run of ['first', 'second']) {
      const ls = lists(watched, per);
      const r = time(() => eventsOfRelease(changesInReleaseFor(db, 2, [...new Set(ls.flatMap((l) => l.registry_ids))]), release, ls, Date.now()));
      console.log(`${label}, lists of ${per.toLocaleString()} (${run} run): ${r.out.length.toLocaleString()} events in ${r.ms.toFixed(0)} ms (ratio to baseline ${(r.ms / baseline.ms).toFixed(2)}x)`);
    }
  }
}
db.close();
rmSync(dir, { recursive: true, force: true });
