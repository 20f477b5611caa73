#!/usr/bin/env bun
/**
 * The part of `ingest --previous` that plain ingest does not do, alone, at national scale, and /history
 * over HTTP on the result (used when two national ingests cannot finish on a busy shared machine):
 *   bun run scripts/bench-history-carry.ts [--previous var/bench/national.sqlite] [--work DIR] [--share 0.02]
 * Copies the previous index, changes the scores of `--share` of its facilities in the copy (a stand-in for
 * next week's facility table: the diff scans every row whatever changed), then times recordRelease
 * (src/index/history-tables/carry-forward.ts) against the previous index: wall and CPU time, rows written, growth.
 * Then serves the copy and measures GET /history against GET /facility with wrk (8 connections).
 */
import { Database } from 'bun:sqlite';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { PREVIOUS_SCHEMA, recordRelease } from '../src/index/history-tables/carry-forward';
import { readPreviousIndex } from '../src/index/previous-format';
import { INDEX_FORMAT } from '../src/index/schema';
import { benchKey, fmt, median, requireWrk, runWrk, startChild } from './bench/wrk';

const { values } = parseArgs({
  options: {
    previous: { type: 'string', default: 'var/bench/national.sqlite' },
    work: { type: 'string', default: 'var/bench/history' },
    share: { type: 'string', default: '0.02' },
    seconds: { type: 'string', default: '8' },
    /** Keep the copy of an earlier run (its changed scores), dropping only its release and history rows. */
    reuse: { type: 'boolean' },
    /** Stop after the carry-forward figures (serving a national index first builds its area index: minutes on a busy machine). */
    'no-serve': { type: 'boolean' },
  },
});
requireWrk();
const ROOT = join(import.meta.dir, '..');
const previousPath = values.previous!;
const next = join(values.work!, 'carry-2.sqlite');
// read as `ingest --previous` reads it (the current format or the one before)
const previous = readPreviousIndex(previousPath);
const info = previous.releases[previous.releases.length - 1]!;

const every = Math.round(1 / Number(values.share));
const changedWhere = `(CAST(substr(registry_id, -6) AS INTEGER) % ${every}) = 0`;
if (!values.reuse) {
  console.error(`bench-history-carry: copying ${previousPath} ...`);
  copyFileSync(previousPath, next);
}
const db = new Database(next, { strict: true });
db.exec('PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -262144;');
let changed: number;
if (values.reuse) {
  db.exec('DELETE FROM history; DELETE FROM release;');
  changed = (db.query(`SELECT count(*) AS n FROM facility WHERE ${changedWhere}`).get() as { n: number }).n;
} else {
  db.exec('DELETE FROM history; DELETE FROM release;');
  // every 1/share-th facility (by ID) scores one point lower: the changed facilities of "next week"
  changed = db.prepare(`UPDATE facility SET overall_score = max(0, overall_score - 1), recency = max(0, recency - 1) WHERE ${changedWhere}`).run().changes;
}
// what the two tables take, page by page (SQLite's dbstat), not the file size: freed pages are reused
const tableBytes = () => (db.query("SELECT coalesce(sum(pgsize), 0) AS b FROM dbstat WHERE name IN ('history', 'history_by_seq', 'release')").get() as { b: number }).b;
db.prepare(`ATTACH DATABASE ? AS ${PREVIOUS_SCHEMA}`).run(previousPath);
db.exec(`PRAGMA ${PREVIOUS_SCHEMA}.cache_size = -131072;`);

console.error('bench-history-carry: recordRelease ...');
const cpu0 = process.cpuUsage();
const t0 = performance.now();
db.exec('BEGIN');
const recorded = recordRelease(db, { as_of: '2026-11-07', score_version: info.score_version, dataset_name: `${info.dataset_name} (week 2 stand-in)`, facility_count: info.facility_count }, previous, previous.inputsKeys);
db.exec('COMMIT');
const wall = (performance.now() - t0) / 1000;
const cpuUsed = process.cpuUsage(cpu0);
const cpu = (cpuUsed.user + cpuUsed.system) / 1e6;
db.exec(`DETACH DATABASE ${PREVIOUS_SCHEMA}`);
db.prepare("INSERT OR REPLACE INTO index_meta VALUES ('format', ?)").run(INDEX_FORMAT);
db.exec('ANALYZE main; PRAGMA journal_mode = DELETE;');
const historyRows = (db.query('SELECT count(*) AS n FROM history').get() as { n: number }).n;
const growth = tableBytes();
const ids = (db.query('SELECT registry_id FROM history WHERE seq = 2 ORDER BY random() LIMIT 20000').all() as { registry_id: string }[]).map((r) => r.registry_id);
const any = (db.query('SELECT registry_id FROM facility ORDER BY random() LIMIT 20000').all() as { registry_id: string }[]).map((r) => r.registry_id);
db.close();
console.log(`machine             shared (2 cores, load average ${(await Bun.file('/proc/loadavg').text()).split(' ')[0]}); previous ${previousPath} (${info.facility_count} facilities)`);
console.log(`facilities changed  ${changed} (${fmt((100 * changed) / info.facility_count)}%)`);
console.log(`recordRelease       ${fmt(wall, 1)} s wall, ${fmt(cpu, 1)} s CPU: ${Object.entries(recorded.changes).map(([k, n]) => `${n} ${k}`).join(', ')}`);
console.log(`index growth        ${fmt(growth / 1024 / 1024, 1)} MB (${historyRows} history rows incl. first-release baselines; ${fmt(growth / Math.max(1, historyRows), 0)} bytes/row)`);
if (values['no-serve']) process.exit(0);

console.error('bench-history-carry: serving it for /history ...');
const work = values.work!;
const stateDir = join(work, 'state');
const key = benchKey(['--state-dir', stateDir]);
const server = await startChild([process.execPath, join(ROOT, 'src', 'main.ts'), 'serve', '--index', next, '--port', '0', '--state-dir', stateDir], /listening on http:\/\/[^:]+:(\d+)/, { FCS_LOG_REQUESTS: '0' });
const port = Number(/listening on http:\/\/[^:]+:(\d+)/.exec(server.output)![1]);
const lua = (path: string, suffix: string) => {
  writeFileSync(path, `local ids = {${[...ids, ...any].map((i) => `"${i}"`).join(',')}}
math.randomseed(42)
wrk.headers["X-API-Key"] = "${key}"
request = function()
  return wrk.format("GET", "/api/v1/facility/" .. ids[math.random(#ids)] .. "${suffix}")
end
`);
  return path;
};
const url = `http://127.0.0.1:${port}`;
const opts = { connections: 8, seconds: Number(values.seconds) };
runWrk(url, { ...opts, seconds: 2, luaPath: lua(join(work, 'history.lua'), '/history') });
const history = [];
const lookup = [];
for (let i = 0; i < 3; i++) {
  history.push(runWrk(url, { ...opts, luaPath: lua(join(work, 'history.lua'), '/history') }));
  lookup.push(runWrk(url, { ...opts, luaPath: lua(join(work, 'lookup.lua'), '') }));
}
server.stop();

const p = (rs: { p50ms: number; p99ms: number; rps: number; non2xx: number }[]) =>
  `p50 ${fmt(median(rs.map((r) => r.p50ms)))} ms, p99 ${fmt(median(rs.map((r) => r.p99ms)))} ms, ${Math.round(median(rs.map((r) => r.rps)))} req/s, ${rs.reduce((s, r) => s + r.non2xx, 0)} non-2xx`;
console.log(`GET /history        ${p(history)}   (target p50 <= 2 ms; half the IDs changed this week)`);
console.log(`GET /facility       ${p(lookup)}   (same server, same IDs, same run)`);
