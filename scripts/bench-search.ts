#!/usr/bin/env bun
/**
 * Search and export figures on a national-scale index:
 *   npx bun scripts/bench-search.ts [--index var/bench/national.sqlite] [--queries 2000] [--no-http] [--ranked 1000]
 * Prints p50/p99 in-process of `FacilitySearch.page` (limit 20) for 1-, 2- and 3-word prefix queries
 * built from random facilities (a 3-5 letter prefix of a word of the name, then of the city, then of
 * another name word), both sorts; then, over HTTP on loopback, a 500-facility portfolio as CSV and,
 * in the same run, as JSON (the baseline). Targets: search p50 <= 2 ms, p99 <= 10 ms; CSV p50 <= 10 ms.
 */
import { prepareSpatial } from '../src/ops/index-preparer';
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { generateKey } from '../src/access/key-format';
import { createApp } from '../src/api/app';
import { makeConfig } from '../src/config';
import { processParts } from '../src/api/deps';
import { parseAddressQuery } from '../src/demo/address-query';
import { findFacilityBySearch } from '../src/demo/search-fallback';
import { FacilityIndex, connectionOf } from '../src/index/facility-index';
import { FacilitySearch } from '../src/search/facility-search';
import { queryWords } from '../src/search/match';
import type { SearchRequest } from '../src/search/query';
import { SqliteStateStore } from '../src/state/sqlite-store';

const { values } = parseArgs({ options: { index: { type: 'string' }, queries: { type: 'string' }, seed: { type: 'string' }, 'no-http': { type: 'boolean' }, ranked: { type: 'string' } } });
const indexPath = values.index ?? 'var/bench/national.sqlite';
const n = Number(values.queries ?? 2000);
if (!existsSync(indexPath)) {
  console.error(`no index at ${indexPath}: build one with \`ingest\` (docs/ingest.md), or pass --index`);
  process.exit(2);
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const ms = (x: number) => `${x.toFixed(3)} ms`;
// A seeded generator, so two runs time the same queries.
let state = 0x9e3779b9;
const random = () => ((state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0) / 2 ** 32);

const index = FacilityIndex.open(indexPath);
// --ranked N: the broad-query bound to time (default RANKED_MATCHES, src/search/facility-search.ts).
const search = (values.ranked ? FacilitySearch.open(index, Number(values.ranked)) : FacilitySearch.open(index))!;
console.log(`index ${indexPath}: ${index.info.facility_count.toLocaleString('en-US')} facilities`);

type Row = { fac_name: string; fac_city: string; registry_id: string };
// Facilities are picked by registry ID (not by search docid), so indexes of other builds time the same queries.
const span = connectionOf(index).query('SELECT min(registry_id) AS lo, max(registry_id) AS hi FROM facility').get() as { lo: string; hi: string };
const pick = connectionOf(index).prepare<Row, [string]>('SELECT registry_id, fac_name, fac_city FROM facility WHERE registry_id >= ? ORDER BY registry_id LIMIT 1');
const randomId = () => String(Number(span.lo) + Math.floor(random() * (Number(span.hi) - Number(span.lo)))).padStart(span.lo.length, '0');
const prefix = (w: string) => w.slice(0, 3 + Math.floor(random() * 3));

/** `words` words typed from a random facility: a name word, its city, another name word (prefixes of 3-5 letters). */
function typedQuery(words: number): { words: string[]; id: string } {
  for (;;) {
    const row = pick.get(randomId())!;
    const name = queryWords(row.fac_name).filter((w) => w.length >= 3);
    const city = queryWords(row.fac_city).filter((w) => w.length >= 3);
    if (name.length === 0 || city.length === 0 || (words === 3 && name.length < 2)) continue;
    const q = [prefix(name[0]!), prefix(city[0]!), prefix(name[1] ?? '')].slice(0, words);
    return { words: q, id: row.registry_id };
  }
}

const request = (words: string[], sort: 'relevance' | 'score'): SearchRequest => ({
  words, state: null, naics: null, minScore: null, maxScore: null, activeEnforcement: null, sort, limit: 20, after: null,
});

for (const sort of ['relevance', 'score'] as const) {
  for (const words of [1, 2, 3]) {
    const times: number[] = [];
    let matchedOwn = 0;
    let results = 0;
    let broad = 0;
    for (let i = 0; i < n; i++) {
      const q = typedQuery(words);
      const t0 = performance.now();
      const { hits } = search.page(request(q.words, sort));
      times.push(performance.now() - t0);
      // Not timed, and after the timed search (planning caches per word): how many of these queries
      // fall under the broad-query rule (src/search/facility-search.ts).
      if (sort === 'relevance' && search.isBroad(search.plan(q.words).expression)) broad++;
      results += hits.length;
      if (hits.some((h) => h.registry_id === q.id)) matchedOwn++;
    }
    console.log(
      `search ${sort.padEnd(9)} ${words} word${words > 1 ? 's' : ' '}: p50 ${ms(pct(times, 50))}  p99 ${ms(pct(times, 99))}  max ${ms(Math.max(...times))}` +
        `  (${n} queries, ${(results / n).toFixed(1)} results/page, own facility on page 1: ${((matchedOwn / n) * 100).toFixed(0)}%` +
        `${sort === 'relevance' ? `, broad (score order): ${((broad / n) * 100).toFixed(0)}%` : ''})`,
    );
  }
}

// The demo's search fallback (src/demo/search-fallback.ts) on addresses typed without their street
// type and ZIP ("2100 LUSHER, ELKHART IN"): time, and how often it names the facility itself.
{
  const rows = connectionOf(index).query<{ registry_id: string; fac_street: string; fac_city: string; fac_state: string }, []>(
    'SELECT f.registry_id, fac_street, fac_city, fac_state FROM facility f ORDER BY random() LIMIT 300',
  ).all();
  const times: number[] = [];
  let same = 0;
  let none = 0;
  for (const r of rows) {
    const words = r.fac_street.split(' ');
    if (!/^\d+$/.test(words[0] ?? '') || words.length < 3) continue;
    const address = `${words.slice(0, -1).join(' ')}, ${r.fac_city} ${r.fac_state}`;
    const t0 = performance.now();
    const q = parseAddressQuery(address);
    const found = q && findFacilityBySearch(index, search, q);
    times.push(performance.now() - t0);
    if (!found) none++;
    else if (found.registry_id === r.registry_id) same++;
  }
  console.log(
    `demo search fallback (street type and ZIP left out): p50 ${ms(pct(times, 50))}  p99 ${ms(pct(times, 99))}  ` +
      `(${times.length} addresses: ${same} the facility itself, ${none} no answer (ambiguous or not found), ${times.length - same - none} another facility)`,
  );
}

if (values['no-http']) {
  index.close();
  process.exit(0);
}

// Over HTTP: a 500-ID portfolio (Enterprise), CSV versus JSON, alternated request by request.
const store = new SqliteStateStore(':memory:');
const account = await store.createAccount({ name: 'bench', subject: '', tier: 'enterprise', monthlyLimit: 100_000_000, now: Date.now() });
const key = generateKey();
await store.setKey(account.id, key.hash, key.prefix, Date.now());
const config = makeConfig({ logRequests: false });
const app = createApp({ ...processParts(config, Date.now, () => {}), config, index, spatial: prepareSpatial(index, () => {}), store, clock: Date.now, log: () => {} });
const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: app.fetch });
const ids = (connectionOf(index).query('SELECT registry_id FROM facility ORDER BY random() LIMIT 5000').all() as { registry_id: string }[]).map((r) => r.registry_id);
const times: Record<string, number[]> = { csv: [], geojson: [], json: [] };
let bytes = { csv: 0, geojson: 0, json: 0 } as Record<string, number>;
for (let i = 0; i < 300; i++) {
  const body = JSON.stringify({ registry_ids: Array.from({ length: 500 }, (_, j) => ids[(i * 500 + j) % ids.length]) });
  for (const format of ['json', 'csv', 'geojson']) {
    const t0 = performance.now();
    const res = await fetch(`http://127.0.0.1:${server.port}/api/v1/portfolio?format=${format}`, { method: 'POST', headers: { 'x-api-key': key.key, 'content-type': 'application/json' }, body });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${format}: ${res.status} ${text}`);
    if (i >= 20) times[format]!.push(performance.now() - t0);
    bytes[format] = text.length;
  }
}
for (const format of ['json', 'csv', 'geojson']) {
  const t = times[format]!;
  console.log(`portfolio 500 IDs over HTTP as ${format.padEnd(7)}: p50 ${ms(pct(t, 50))}  p99 ${ms(pct(t, 99))}  (${(bytes[format]! / 1024).toFixed(0)} KiB)`);
}
server.stop(true);
index.close();
