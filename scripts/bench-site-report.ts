#!/usr/bin/env bun
/**
 * Site report figures through the whole app (auth, quota, locate, search, render or cache read):
 * JSON p50/p95, PDF cold (first render of a site: MISS) p50/p95, and a cached PDF (HIT) against a
 * cached facility dossier (HIT) of the same facilities. Sites are facilities' own coordinates,
 * drawn at random, so they sit where facilities are. The two cached kinds are measured the same
 * way: after every render of both, interleaved request by request (which goes first alternates),
 * over `--passes` rounds of the sites. In process (`app.handle`) by default; `--http` sends the
 * same requests with fetch, one after another over one kept-alive loopback connection, to a
 * `serve` child process of this checkout (the way a response is written to the socket is part of
 * the figure there). `--where metro` (default) draws the sites in the densest metro: the
 * 0.2-degree square holding the most facilities; `--where national` draws them anywhere. The draw
 * is fixed by `--seed` (default 1), so two builds are compared on the same sites. `--parcel N`
 * sends each site with a `boundary`: an irregular N-vertex ring about 0.15 mile around it (drawn
 * from the site's ID, so the same for every build: parcelAround). Run it alone:
 *   npx bun run scripts/bench-site-report.ts [--index var/bench/national.sqlite] [--samples 100] [--passes 10] [--where metro|national] [--seed N] [--parcel N] [--http]
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { connectionOf, FacilityIndex } from '../src/index/facility-index';
import { benchCpus, benchKey, fmt, startChild } from './bench/wrk';
import { inProcessApp, runAsServed } from './bench/in-process-app';
import { densestSquare, drawSites, parcelAround } from './bench/metro-sites';

// in process, the app runs with serve's allocator setting, as it does when served
runAsServed();
const { values } = parseArgs({ options: { index: { type: 'string' }, samples: { type: 'string' }, passes: { type: 'string' }, where: { type: 'string', default: 'metro' }, seed: { type: 'string', default: '1' }, parcel: { type: 'string' }, http: { type: 'boolean' } } });
const indexPath = values.index ?? 'var/bench/national.sqlite';
const samples = Math.max(1, Number(values.samples ?? 100));
const passes = Math.max(1, Number(values.passes ?? 10));
if (!existsSync(indexPath)) {
  console.error(`no index at ${indexPath}: build the national one (docs/ingest.md), or pass --index data/sample.sqlite (npm run sample builds it)`);
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), 'fcs-bench-site-report-'));
const index = FacilityIndex.open(indexPath);
const facilities = (connectionOf(index).query('SELECT count(*) AS n FROM facility').get() as { n: number }).n;
if (values.where !== 'metro' && values.where !== 'national') {
  console.error('--where is metro or national');
  process.exit(2);
}
const db = connectionOf(index);
const square = values.where === 'metro' ? densestSquare(db) : null;
const seed = Number.parseInt(values.seed!, 10) || 0;
const drawn = drawSites(db, square, seed, 2 * samples);
const where = square ? `densest metro: lat ${square.y / 5}..${(square.y + 1) / 5}, lng ${square.x / 5}..${(square.x + 1) / 5} (${square.n.toLocaleString()} facilities)` : 'anywhere';
// the second half only warms the app path up (JIT), so measured misses are first reports of their site
const sites = drawn.slice(0, samples);
const warm = drawn.slice(samples);

type Target = { base: string; key: string; send: (req: Request) => Promise<Response>; stop: () => void };

async function inProcess(): Promise<Target> {
  const { handle, key } = await inProcessApp(index, work, join(work, 'cache'));
  return { base: 'http://localhost', key, send: handle, stop: () => {} };
}

/** `serve` of this checkout on a free loopback port (pinned to a core when it can be); fetch keeps its connection alive. */
async function overHttp(): Promise<Target> {
  const key = benchKey(['--state-dir', work]);
  const main = join(import.meta.dir, '..', 'src', 'main.ts');
  const cmd = [process.execPath, main, 'serve', '--index', indexPath, '--port', '0', '--host', '127.0.0.1', '--state-dir', work];
  const server = await startChild(cmd, /"port":(\d+)/, { FCS_LOG_REQUESTS: '0' }, benchCpus()?.server);
  const port = server.output.match(/"port":(\d+)/)![1];
  return { base: `http://127.0.0.1:${port}`, key, send: (req) => fetch(req), stop: server.stop };
}

const target = values.http ? await overHttp() : await inProcess();
const { base, key } = target;
const parcelVertices = values.parcel === undefined ? 0 : Math.max(3, Number.parseInt(values.parcel, 10) || 0);

const bodies = new Map(drawn.map((s) => [s, JSON.stringify(parcelVertices > 0 ? { lat: s.lat, lng: s.lng, boundary: parcelAround(s, parcelVertices) } : { lat: s.lat, lng: s.lng })]));
const siteReport = (s: { registry_id: string; lat: number; lng: number }, accept: string) =>
  target.send(new Request(`${base}/api/v1/site-report`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json', accept }, body: bodies.get(s)! }));
const dossier = (id: string) => target.send(new Request(`${base}/api/v1/facility/${id}/report`, { method: 'POST', headers: { 'x-api-key': key } }));

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
/**
 * The body's bytes, read chunk by chunk as a client reads its socket. Not `arrayBuffer()`: in
 * process, Bun's Response.arrayBuffer() of a stream body (a large answer is one: src/wire/late-body.ts)
 * takes ~1 ms per 300 KB, a cost of this harness that no HTTP client pays (reading the same stream
 * chunk by chunk takes ~15 µs). A text chunk (the JSON form, in process) is encoded here, as the
 * server encodes it when writing to a socket.
 */
async function bodyOf(res: Response): Promise<Uint8Array> {
  if (res.body === null) return new Uint8Array(0);
  const parts: Uint8Array[] = [];
  const reader = res.body.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) parts.push(typeof r.value === 'string' ? Buffer.from(r.value) : r.value);
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}

/** [ms to the whole body, the response, the body, ms to the response (headers)]. */
async function timed(call: () => Promise<Response>, want: { cache?: string } = {}): Promise<[number, Response, Uint8Array, number]> {
  const t0 = performance.now();
  const res = await call();
  const head = performance.now() - t0;
  const body = await bodyOf(res);
  const ms = performance.now() - t0;
  if (res.status !== 200 || (want.cache && res.headers.get('x-cache') !== want.cache)) throw new Error(`${res.status} ${res.headers.get('x-cache')}: ${new TextDecoder().decode(body.subarray(0, 200))}`);
  return [ms, res, body, head];
}

const mode = values.http ? 'over HTTP (fetch, one kept-alive loopback connection, a serve child process)' : `in process (app.handle; MIMALLOC_PURGE_DELAY=${process.env.MIMALLOC_PURGE_DELAY ?? 'unset'})`;
console.log(`index: ${indexPath} (${facilities.toLocaleString()} facilities, fictitious=${index.info.fictitious}); ${sites.length} sites sampled (seed ${seed}), ${where}; ${parcelVertices > 0 ? `each a ${parcelVertices}-vertex parcel` : 'point sites'}; ${mode}; ${new Date().toISOString()}`);
for (const s of warm) {
  await timed(() => siteReport(s, 'application/json'));
  await timed(() => siteReport(s, 'application/pdf'));
  await timed(() => dossier(s.registry_id));
}

// Each timed phase starts from a collected heap (in process), so it is not charged with the
// garbage of the phase before it (the warm-up's renders, a megabyte or more each).
const collect = () => (values.http ? undefined : Bun.gc(true));
collect();
const jsonMs: number[] = [];
const jsonHeadMs: number[] = [];
const findings: number[] = [];
for (const s of sites) {
  const [ms, , body, head] = await timed(() => siteReport(s, 'application/json'));
  jsonMs.push(ms);
  jsonHeadMs.push(head);
  findings.push((JSON.parse(new TextDecoder().decode(body)) as { data: { findings: unknown[] } }).data.findings.length);
}
collect();
const coldMs: number[] = [];
const bytes: number[] = [];
const dossierBytes: number[] = [];
for (const s of sites) {
  const [ms, , pdf] = await timed(() => siteReport(s, 'application/pdf'), { cache: 'MISS' });
  coldMs.push(ms);
  bytes.push(pdf.length);
}
for (const s of sites) dossierBytes.push((await timed(() => dossier(s.registry_id)))[2].length);
// Every render is done before the first hit is timed, so neither kind of hit runs in the wake of
// its own renders; interleaved, both kinds see the same machine.
collect();
const hitMs: number[] = [];
const dossierHitMs: number[] = [];
// to the response's headers: the service's work, before the body's bytes are handed over
const hitHeadMs: number[] = [];
const dossierHeadMs: number[] = [];
// How each kind went on the wire (src/api/http/pdf-response.ts): Content-Length or chunked.
const framing = (res: Response) => (res.headers.has('content-length') ? 'Content-Length' : (res.headers.get('transfer-encoding') ?? 'no length'));
const framed = values.http ? `; site report sent with ${framing((await timed(() => siteReport(sites[0]!, 'application/pdf')))[1])}, dossier with ${framing((await timed(() => dossier(sites[0]!.registry_id)))[1])}` : '';
for (let pass = 0; pass < passes; pass++) {
  for (const [i, s] of sites.entries()) {
    const site = async () => {
      const [ms, , , head] = await timed(() => siteReport(s, 'application/pdf'), { cache: 'HIT' });
      hitMs.push(ms);
      hitHeadMs.push(head);
    };
    const facility = async () => {
      const [ms, , , head] = await timed(() => dossier(s.registry_id), { cache: 'HIT' });
      dossierHitMs.push(ms);
      dossierHeadMs.push(head);
    };
    if ((pass + i) % 2 === 0) {
      await site();
      await facility();
    } else {
      await facility();
      await site();
    }
  }
}
target.stop();
rmSync(work, { recursive: true, force: true });

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
console.log('');
console.log('| figure | p50 | p95 |');
console.log('|---|---|---|');
console.log(`| JSON site report (auth, quota, search, reads), ms | ${fmt(percentile(jsonMs, 50))} | ${fmt(percentile(jsonMs, 95))} |`);
console.log(`| JSON site report, to the response's headers, ms | ${fmt(percentile(jsonHeadMs, 50))} | ${fmt(percentile(jsonHeadMs, 95))} |`);
console.log(`| PDF, cold (MISS: the JSON work + render + store), ms | ${fmt(percentile(coldMs, 50))} | ${fmt(percentile(coldMs, 95))} |`);
console.log(`| PDF, cached (HIT: auth, body, quota, locate, cache), ms | ${fmt(percentile(hitMs, 50))} | ${fmt(percentile(hitMs, 95))} |`);
console.log(`| facility dossier, cached (HIT), same facilities, interleaved, ms | ${fmt(percentile(dossierHitMs, 50))} | ${fmt(percentile(dossierHitMs, 95))} |`);
console.log(`| PDF, cached, to the response's headers, ms | ${fmt(percentile(hitHeadMs, 50))} | ${fmt(percentile(hitHeadMs, 95))} |`);
console.log(`| facility dossier, cached, to the response's headers, ms | ${fmt(percentile(dossierHeadMs, 50))} | ${fmt(percentile(dossierHeadMs, 95))} |`);
console.log('');
console.log(`findings per site: p50 ${percentile(findings, 50)}, p95 ${percentile(findings, 95)}, max ${Math.max(...findings)}; PDF bytes: mean ${Math.round(mean(bytes)).toLocaleString()}, max ${Math.max(...bytes).toLocaleString()}; dossier bytes: mean ${Math.round(mean(dossierBytes)).toLocaleString()}`);
console.log(`cached hits timed: ${hitMs.length} of each kind (${sites.length} sites x ${passes} passes)${framed}`);
console.log(`cached site report / cached dossier, p50: ${fmt(percentile(hitMs, 50) / percentile(dossierHitMs, 50))} whole; ${fmt(percentile(hitHeadMs, 50) / percentile(dossierHeadMs, 50))} to the headers`);
process.exit(0);
