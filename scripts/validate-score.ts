#!/usr/bin/env bun
/**
 * How the score separates what ECHO itself says:
 *   bun run scripts/validate-score.ts FILE [--as-of YYYY-MM-DD]
 * FILE is an ECHO CSV (exporter or facility-search; ingested into a temporary index first) or an
 * index file (.sqlite). Prints the overall score by ECHO status class (count, quartiles, median),
 * the pairwise concordance of "Significant Violation" vs "No Violation Identified" (the share of
 * (SNC, clean-status) pairs where the SNC facility scores lower; ties count half), the peer groups
 * by NAICS depth; the mean score of SNC facilities left unanswered against those answered by an
 * enforcement action dated in their run; the share with not enough data to judge; the band histogram
 * the page and PDFs show ("Not enough data" in place of a band); and the model's real-semantics pair
 * checks over every facility (scripts/score-checks.ts). Exits 1 when a check fails or unanswered SNC
 * does not score below answered SNC on average.
 */
import { Database } from 'bun:sqlite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { FacilityIndex } from '../src/index/facility-index';
import { ingest } from '../src/ingest/ingest';
import { factsOf } from '../src/scoring/facts';
import { runChecks } from './score-checks';

const { values, positionals } = parseArgs({ args: Bun.argv.slice(2), options: { 'as-of': { type: 'string' } }, allowPositionals: true });
if (positionals.length !== 1) {
  console.error('usage: bun run scripts/validate-score.ts FILE [--as-of YYYY-MM-DD]');
  process.exit(2);
}
const file = resolve(positionals[0]!);
let work: string | null = null;
let indexPath = file;
if (!file.endsWith('.sqlite')) {
  work = mkdtempSync(join(tmpdir(), 'validate-score-'));
  indexPath = join(work, 'index.sqlite');
  await ingest({ files: [file], out: indexPath, asOf: values['as-of'], log: () => {} });
}

const CLASSES = ['Significant Violation', 'Violation Identified', 'No Violation Identified', 'other or blank'] as const;
type Class = (typeof CLASSES)[number];
const classOf = (status: string | null): Class => (CLASSES.includes(status as Class) ? (status as Class) : 'other or blank');

try {
  const db = new Database(indexPath, { readonly: true });
  const info = JSON.parse((db.query("SELECT value FROM index_meta WHERE key = 'info'").get() as { value: string }).value);
  console.log(`file          ${file}`);
  console.log(`index         ${info.facility_count.toLocaleString('en-US')} facilities, as of ${info.as_of}, method ${info.score_version}${info.fictitious ? ', FICTITIOUS data' : ''}`);

  // a histogram of overall scores per class: quartiles and concordance from 101 bins, whatever the row count
  const hist = new Map<Class, number[]>(CLASSES.map((c) => [c, Array<number>(101).fill(0)]));
  // format 10 stores the inputs' values in the order of index_meta inputs_keys (src/index/inputs-codec.ts), older formats keyed objects
  const keysRow = db.query("SELECT value FROM index_meta WHERE key = 'inputs_keys'").get() as { value: string } | null;
  const statusPath = keysRow ? `$[${(JSON.parse(keysRow.value) as string[]).indexOf('compliance_status')}]` : '$.compliance_status';
  const rows = db.query(
    `SELECT json_extract(i.score_inputs, ?1) AS status, f.overall_score AS score, count(*) AS n
     FROM facility f JOIN facility_inputs i ON i.registry_id = f.registry_id GROUP BY 1, 2`,
  ).all(statusPath) as { status: string | null; score: number; n: number }[];
  for (const r of rows) hist.get(classOf(r.status))![r.score]! += r.n;

  const quantile = (h: number[], q: number) => {
    const total = h.reduce((a, b) => a + b, 0);
    const rank = Math.max(1, Math.ceil(q * total));
    let seen = 0;
    for (let s = 0; s <= 100; s++) if ((seen += h[s]!) >= rank) return s;
    return NaN;
  };
  console.log('\nOverall score by ECHO status (FAC_COMPLIANCE_STATUS)');
  console.log('class                       count       min  q1  median  q3  max');
  for (const c of CLASSES) {
    const h = hist.get(c)!;
    const n = h.reduce((a, b) => a + b, 0);
    if (n === 0) {
      console.log(`${c.padEnd(26)} ${'0'.padStart(6)}`);
      continue;
    }
    const [min, q1, med, q3, max] = [quantile(h, 0), quantile(h, 0.25), quantile(h, 0.5), quantile(h, 0.75), quantile(h, 1)];
    console.log(`${c.padEnd(26)} ${n.toLocaleString('en-US').padStart(9)}   ${[min, q1, med, q3, max].map((x) => String(x).padStart(3)).join('  ')}`);
  }

  const snc = hist.get('Significant Violation')!;
  const clean = hist.get('No Violation Identified')!;
  let lower = 0, ties = 0, pairs = 0, cleanBelow = 0;
  for (let s = 0; s <= 100; s++) {
    if (snc[s] === 0) continue;
    for (let c = 0; c <= 100; c++) {
      const n = snc[s]! * clean[c]!;
      pairs += n;
      if (s < c) lower += n;
      else if (s === c) ties += n;
    }
  }
  for (let c = 0; c <= 100; c++) cleanBelow += clean[c]!;
  console.log('\nConcordance, Significant Violation vs No Violation Identified');
  if (pairs === 0) console.log('  no pairs (one of the classes is empty)');
  else {
    console.log(`  pairs ${pairs.toLocaleString('en-US')}: SNC scores lower in ${((100 * lower) / pairs).toFixed(2)}%, ties ${((100 * ties) / pairs).toFixed(2)}%`);
    console.log(`  concordance (ties half) ${((lower + ties / 2) / pairs).toFixed(4)}`);
  }

  console.log('\nPeer groups by NAICS depth (groups widen from 6 digits to 4, 3, 2 until they hold 30)');
  const peers = db.query(
    `SELECT p.naics_digits AS digits, count(DISTINCT p.peer_naics) AS groups, sum(c.n) AS facilities, min(p.peer_count) AS smallest, max(p.peer_count) AS largest
     FROM (SELECT fac_naics, count(*) AS n FROM facility GROUP BY fac_naics) c
     JOIN (SELECT DISTINCT naics, naics_digits, peer_naics, peer_count FROM peer_rank) p ON p.naics = c.fac_naics
     GROUP BY p.naics_digits ORDER BY p.naics_digits DESC`,
  ).all() as { digits: number; groups: number; facilities: number; smallest: number; largest: number }[];
  console.log('digits   groups   facilities   smallest group   largest group');
  for (const p of peers) {
    console.log(`${String(p.digits).padStart(6)}   ${String(p.groups).padStart(6)}   ${p.facilities.toLocaleString('en-US').padStart(10)}   ${String(p.smallest).padStart(14)}   ${String(p.largest).padStart(13)}`);
  }
  const noNaics = (db.query("SELECT count(*) AS n FROM facility WHERE length(fac_naics) < 2").get() as { n: number }).n;
  console.log(`no NAICS code (peers null): ${noNaics.toLocaleString('en-US')} facilities`);
  const small = peers.filter((p) => p.smallest < 30).map((p) => `${p.digits}-digit`);
  if (small.length) console.log(`groups under 30 even at 2 digits exist (${small.join(', ')}): no percentile for them, peer_count shows their size`);
  const ids = (db.query('SELECT registry_id FROM facility').all() as { registry_id: string }[]).map((r) => r.registry_id);
  db.close();

  console.log(`\nProperty checks (score method ${info.score_version}, every facility rescored at ${info.as_of})`);
  const index = FacilityIndex.open(indexPath);
  // beside the checks, from the same rows: SNC answered or not, data enough to judge or not, bands
  const bySnc = { unanswered: { n: 0, sum: 0, min: 100, max: 0 }, answered: { n: 0, sum: 0, min: 100, max: 0 } };
  const insufficient = { total: 0, inactive: 0, no_inspection_or_known_quarter: 0 };
  const BANDS = [['Good', 90], ['Fair', 75], ['Poor', 50], ['Very poor', 0]] as const;
  const bands = new Map<string, number>([...BANDS.map(([b]) => [b, 0] as [string, number]), ['Not enough data', 0]]);
  const stored = function* () {
    for (const id of ids) {
      const row = index.getDetail(id)!;
      const f = factsOf(row.score_inputs, info.as_of);
      if (f.currentStatus === 'significant') {
        const s = f.sncAnsweredBy === null ? bySnc.unanswered : bySnc.answered;
        s.n++;
        s.sum += row.overall_score;
        s.min = Math.min(s.min, row.overall_score);
        s.max = Math.max(s.max, row.overall_score);
      }
      const c = row.data_completeness;
      if (c.sufficient === false) {
        insufficient.total++;
        for (const r of c.insufficient_reasons) insufficient[r]++;
        bands.set('Not enough data', bands.get('Not enough data')! + 1);
      } else {
        const band = BANDS.find(([, min]) => row.overall_score >= min)![0];
        bands.set(band, bands.get(band)! + 1);
      }
      yield { id, inputs: row.score_inputs, overall: row.overall_score, active: row.active_enforcement };
    }
  };
  const results = runChecks(stored(), info.as_of);
  index.close();
  const n = ids.length;
  const pct = (x: number) => `${((100 * x) / Math.max(1, n)).toFixed(1)}%`;
  const mean = (s: { n: number; sum: number }) => (s.n === 0 ? NaN : s.sum / s.n);
  console.log('Significant non-compliance now, by enforcement response (an action dated in the current significant run)');
  for (const [k, s] of Object.entries(bySnc)) {
    console.log(`  ${k.padEnd(10)} ${s.n.toLocaleString('en-US').padStart(9)} facilities   mean ${mean(s).toFixed(1).padStart(5)}   min ${s.n ? s.min : '-'}   max ${s.n ? s.max : '-'}`);
  }
  const sncOk = bySnc.unanswered.n === 0 || bySnc.answered.n === 0 || mean(bySnc.unanswered) < mean(bySnc.answered);
  console.log(`  mean of unanswered below answered: ${sncOk ? 'ok' : 'FAILED'}`);
  console.log(`Not enough data to judge: ${insufficient.total.toLocaleString('en-US')} of ${n.toLocaleString('en-US')} (${pct(insufficient.total)}); inactive ${insufficient.inactive.toLocaleString('en-US')}, no inspection in 5 years and no known quarter ${insufficient.no_inspection_or_known_quarter.toLocaleString('en-US')}`);
  console.log('Bands as the page and PDFs show them');
  for (const [b, count] of bands) console.log(`  ${b.padEnd(16)} ${count.toLocaleString('en-US').padStart(10)}  ${pct(count).padStart(6)}`);
  if (!sncOk) process.exitCode = 1;
  console.log('Pair checks');
  for (const c of results) {
    const verdict = c.failed === 0 ? 'ok' : `FAILED on ${c.failed.toLocaleString('en-US')} (e.g. ${c.example})`;
    console.log(`  ${c.name.padEnd(78)} ${c.checked.toLocaleString('en-US').padStart(10)} checked  ${verdict}`);
  }
  if (results.some((c) => c.failed > 0)) process.exitCode = 1;
} finally {
  if (work) rmSync(work, { recursive: true, force: true });
}
