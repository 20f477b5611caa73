#!/usr/bin/env bun
/**
 * A lookup's cost stage by stage, in process (no sockets): the whole lookup through `app.handle`,
 * the minimal Elysia + bun:sqlite route of bench-lookup the same way, and each stage of the lookup
 * alone over the same random IDs, 64 at a time as wrk's 64 connections arrive (so the monthly
 * count's group commit is shared as when served). Medians of `--rounds` rounds, µs a lookup. What is
 * left of the whole once the stages are taken away is the framework's part (routing, hooks, context).
 *   npx bun run scripts/bench-lookup-stages.ts [--index var/bench/national.sqlite] [--lookups 20000] [--rounds 7]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { authenticate } from '../src/access/authenticate';
import { authorize } from '../src/access/authorize';
import { meterCall, quotaHeaders } from '../src/access/quota';
import { noneMatchHits, releaseTag, weakTag } from '../src/api/http/conditional';
import { jsonResponse } from '../src/api/http/json-response';
import { metaFor, newRequestId } from '../src/api/http/request-context';
import { processParts } from '../src/api/deps';
import { createApp } from '../src/api/app';
import { makeConfig } from '../src/config';
import { toFacilityRecord } from '../src/facilities/service';
import { FacilityIndex } from '../src/index/facility-index';
import { generateKey } from '../src/access/key-format';
import { SqliteStateStore } from '../src/state/sqlite-store';
import { fmt, median, randomIds } from './bench/wrk';
import { runAsServed } from './bench/in-process-app';
import { minimalLookupApp } from './bench/minimal-lookup-app';

runAsServed();
const { values } = parseArgs({ options: { index: { type: 'string' }, lookups: { type: 'string' }, rounds: { type: 'string' } } });
const indexPath = values.index ?? 'var/bench/national.sqlite';
const n = Number(values.lookups ?? 20_000);
const rounds = Number(values.rounds ?? 7);
const work = mkdtempSync(join(tmpdir(), 'fcs-bench-stages-'));
const { ids } = randomIds(indexPath, n);
const index = FacilityIndex.open(indexPath);
const store = new SqliteStateStore(join(work, 'state.sqlite'));
const account = await store.createAccount({ name: 'bench', subject: '', tier: 'enterprise', monthlyLimit: 1_000_000_000, now: Date.now() });
const k = generateKey();
await store.setKey(account.id, k.hash, k.prefix, Date.now());
const config = makeConfig({ logRequests: false, stateDir: work, reportCacheDir: 'off' });
const parts = processParts(config, Date.now, () => {});
const app = createApp({ ...parts, config, index, spatial: { require: () => { throw new Error('no area here'); } } as never, store, clock: Date.now, log: () => {} });

// bench-lookup's minimal reference route, in this process
const { app: minimal, byId } = minimalLookupApp(indexPath);

const request = (id: string) => new Request(`http://localhost/api/v1/facility/${id}`, { headers: { 'x-api-key': k.key } });
const caller = await authenticate(store, { apiKey: k.key, authorization: null });
const answers = ids.map((id) => index.stored.answer(id, true, false)!);
const records = answers.map((a) => toFacilityRecord(a, 'enterprise'));
const rows = ids.map((id) => byId.get(id));
const release = releaseTag(index.info);
const facts = { id: 'req_0', startedAt: performance.now() };

/** µs a lookup of `step` over every ID, 64 in flight at a time (awaited together when async). */
async function perLookup(step: (i: number) => unknown): Promise<number> {
  const t = performance.now();
  for (let i = 0; i < ids.length; i += 64) {
    const batch: unknown[] = [];
    for (let j = i; j < i + 64 && j < ids.length; j++) batch.push(step(j));
    if (batch[0] instanceof Promise) await Promise.all(batch);
  }
  return ((performance.now() - t) * 1000) / ids.length;
}

const STEPS: [string, (i: number) => unknown][] = [
  ['whole lookup, app.handle (status 200 checked)', async (i) => { const r = await app.handle(request(ids[i]!)); if (r.status !== 200) throw new Error(`status ${r.status}`); await r.arrayBuffer(); }],
  ['minimal Elysia + bun:sqlite route, handle', async (i) => (await minimal.handle(request(ids[i]!))).arrayBuffer()],
  ['Request object (both pay it)', (i) => request(ids[i]!)],
  ['API key: authenticate (cached key) + tier', async () => authorize(await authenticate(store, { apiKey: k.key, authorization: null }), 'facility')],
  ['monthly count (ledger, group commit) + quota headers', async () => quotaHeaders(await meterCall(store, caller, Date.now()), Date.now(), {})],
  ['index read: row, detail, score change, peers', (i) => index.stored.answer(ids[i]!, true, false)],
  ['shaping for the tier (toFacilityRecord)', (i) => toFacilityRecord(answers[i]!, 'enterprise')],
  ['ETag + If-None-Match check', (i) => noneMatchHits(null, weakTag(release, answers[i]!.row.score_hash, 'full'))],
  ['request id + meta', () => metaFor({ ...facts, id: newRequestId() }, Date.now)],
  ['envelope: Response.json + its bytes', async (i) => jsonResponse({ data: records[i], meta: metaFor(facts, Date.now) }, { headers: { 'x-request-id': 'req_0' } }).arrayBuffer()],
  ['minimal: its row read', (i) => byId.get(ids[i]!)],
  ['minimal: its envelope, Response.json + its bytes', (i) => Response.json({ data: rows[i], meta: { request_id: 'req_0', timestamp: new Date().toISOString(), response_time_ms: 0 } }).arrayBuffer()],
  ['access-log metrics observation', () => parts.metrics.observe({ method: 'GET', route: '/api/v1/facility/:registry_id', status: 200, seconds: 0.0001 })],
];

const results = new Map<string, number[]>(STEPS.map(([name]) => [name, []]));
for (const [, step] of STEPS) await perLookup(step); // warm-up
for (let r = 0; r < rounds; r++) for (const [name, step] of STEPS) results.get(name)!.push(await perLookup(step));
const med = (name: string) => median(results.get(name)!);
console.log(`index ${indexPath}; ${ids.length.toLocaleString()} random IDs, 64 at a time; medians of ${rounds} rounds; Enterprise key; ${new Date().toISOString()}`);
console.log('\n| stage | µs a lookup |\n|---|---|');
for (const [name] of STEPS) console.log(`| ${name} | ${fmt(med(name))} |`);
const stageNames = STEPS.slice(3, 10).map(([name]) => name);
const stages = stageNames.reduce((s, name) => s + med(name), 0);
const whole = med(STEPS[0]![0]);
console.log(`\nstages of the lookup, summed: ${fmt(stages)} µs; the rest of the whole (Elysia routing, hooks, context, the access-log hook, Request): ${fmt(whole - stages)} µs`);
console.log(`minimal / whole, in process: ${fmt(med(STEPS[1]![0]) / whole)}`);
const bytes = async (r: Response) => (await r.arrayBuffer()).byteLength;
const sizes = await Promise.all(ids.slice(0, 1000).map(async (id) => [await bytes(await app.handle(request(id))), await bytes(await minimal.handle(request(id)))]));
console.log(`answer bytes, median of 1,000: the lookup ${median(sizes.map((s) => s[0]!))}, the minimal route ${median(sizes.map((s) => s[1]!))}`);
rmSync(work, { recursive: true, force: true });
