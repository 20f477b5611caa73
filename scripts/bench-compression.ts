#!/usr/bin/env bun
/**
 * What gzip saves on the wire. Part 1, in process: the densest-metro site report's JSON (a site in
 * the 0.2-degree square holding the most facilities) compressed at gzip levels and brotli qualities,
 * size and time, and the gzip size of its PDF. Part 2, through a `serve` child: that JSON and a
 * 500-row area CSV fetched by curl (a new connection each, as a script would), identity against
 * gzip in alternating rounds: bytes on the wire and time to the last byte (median), over loopback
 * and, with --shaped, from a network namespace over a veth pair shaped to 100 Mbit/s each way
 * (`tc` tbf; needs root and `ip netns`; the namespace and pair are removed at the end).
 *   npx bun run scripts/bench-compression.ts [--index var/bench/national.sqlite] [--rounds 15] [--shaped] [--rate 100mbit]
 */
import { Database } from 'bun:sqlite';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { brotliCompressSync, constants } from 'node:zlib';
import { benchKey, fmt, median, startChild } from './bench/wrk';
import { densestSquare, drawSites } from './bench/metro-sites';

const { values } = parseArgs({ options: { index: { type: 'string' }, rounds: { type: 'string' }, shaped: { type: 'boolean' }, rate: { type: 'string', default: '100mbit' } } });
const indexPath = values.index ?? 'var/bench/national.sqlite';
const rounds = Math.max(1, Number(values.rounds ?? 15));
if (!existsSync(indexPath)) {
  console.error(`no index at ${indexPath}: build the national one (docs/ingest.md), or pass --index`);
  process.exit(2);
}
const root = join(import.meta.dir, '..');
const work = mkdtempSync(join(tmpdir(), 'fcs-bench-compression-'));

const db = new Database(indexPath, { readonly: true });
const site = drawSites(db, densestSquare(db), 1, 1)[0]!;
db.close();
console.log(`index ${indexPath}; site ${site.lat}, ${site.lng} (densest 0.2-degree square); ${rounds} rounds; ${new Date().toISOString()}`);

const SHAPED = { ns: 'fcs-bench-shaped', host: 'fcsb0', peer: 'fcsb1', hostIp: '10.77.0.1', peerIp: '10.77.0.2' };
function sh(cmd: string[]): void {
  const r = Bun.spawnSync(cmd, { stderr: 'pipe' });
  if (r.exitCode !== 0) throw new Error(`${cmd.join(' ')}: ${r.stderr.toString().trim()}`);
}
function unshape(): void {
  Bun.spawnSync(['ip', 'link', 'del', SHAPED.host], { stderr: 'ignore' });
  Bun.spawnSync(['ip', 'netns', 'del', SHAPED.ns], { stderr: 'ignore' });
}
function shape(rate: string): void {
  unshape();
  sh(['ip', 'netns', 'add', SHAPED.ns]);
  sh(['ip', 'link', 'add', SHAPED.host, 'type', 'veth', 'peer', 'name', SHAPED.peer]);
  sh(['ip', 'link', 'set', SHAPED.peer, 'netns', SHAPED.ns]);
  sh(['ip', 'addr', 'add', `${SHAPED.hostIp}/24`, 'dev', SHAPED.host]);
  sh(['ip', 'link', 'set', SHAPED.host, 'up']);
  sh(['ip', 'netns', 'exec', SHAPED.ns, 'ip', 'addr', 'add', `${SHAPED.peerIp}/24`, 'dev', SHAPED.peer]);
  sh(['ip', 'netns', 'exec', SHAPED.ns, 'ip', 'link', 'set', SHAPED.peer, 'up']);
  // tbf at `rate` on both ends; the burst is one timer tick's worth at 100 Mbit/s
  sh(['tc', 'qdisc', 'add', 'dev', SHAPED.host, 'root', 'tbf', 'rate', rate, 'burst', '64kb', 'latency', '50ms']);
  sh(['ip', 'netns', 'exec', SHAPED.ns, 'tc', 'qdisc', 'add', 'dev', SHAPED.peer, 'root', 'tbf', 'rate', rate, 'burst', '64kb', 'latency', '50ms']);
}

const key = benchKey(['--state-dir', work]);
const server = await startChild(
  [process.execPath, join(root, 'src/main.ts'), 'serve', '--port', '0', '--host', '0.0.0.0', '--index', indexPath, '--state-dir', work, '--report-cache-dir', 'off'],
  /"port":(\d+)/,
  { FCS_LOG_REQUESTS: '0' },
);
const port = Number(server.output.match(/"port":(\d+)/)![1]);
const siteBody = JSON.stringify({ lat: site.lat, lng: site.lng });

try {
  // Part 1: the JSON body itself, compressed in process
  const json = new Uint8Array(await (await fetch(`http://127.0.0.1:${port}/api/v1/site-report`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json', 'accept-encoding': 'identity' }, body: siteBody })).arrayBuffer());
  const pdf = new Uint8Array(await (await fetch(`http://127.0.0.1:${port}/api/v1/site-report?format=pdf`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: siteBody })).arrayBuffer());
  const time = (f: () => Uint8Array | Buffer) => {
    const ms: number[] = [];
    let size = 0;
    for (let i = 0; i < 9; i++) {
      const t = performance.now();
      size = f().length;
      ms.push(performance.now() - t);
    }
    return { size, ms: median(ms) };
  };
  console.log(`\nsite report JSON: ${json.length.toLocaleString()} bytes; its PDF ${pdf.length.toLocaleString()} bytes, gzip level 4 of it ${Bun.gzipSync(pdf, { level: 4 }).length.toLocaleString()}`);
  console.log('| coding | bytes | ratio | ms (median of 9) |\n|---|---|---|---|');
  for (const level of [1, 4, 6, 9] as const) {
    const r = time(() => Bun.gzipSync(json, { level }));
    console.log(`| gzip ${level} | ${r.size.toLocaleString()} | ${fmt(json.length / r.size, 1)}x | ${fmt(r.ms)} |`);
  }
  for (const quality of [1, 4, 5, 11]) {
    const r = time(() => brotliCompressSync(json, { params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: json.length } }));
    console.log(`| brotli ${quality} | ${r.size.toLocaleString()} | ${fmt(json.length / r.size, 1)}x | ${fmt(r.ms)} |`);
  }

  // Part 2: over the wire, by curl
  const asks = [
    { name: 'site report JSON', path: '/api/v1/site-report', body: siteBody },
    { name: 'area CSV, 500 rows', path: `/api/v1/area?lat=${site.lat}&lng=${site.lng}&radius_miles=5&limit=500&format=csv` },
  ];
  const curl = (base: string, ask: (typeof asks)[number], gzip: boolean, ns?: string) => {
    const args = ['curl', '-s', '-o', '/dev/null', '-w', '%{size_download} %{time_total} %{http_code} %{time_starttransfer}', '-H', `x-api-key: ${key}`];
    if (gzip) args.push('--compressed');
    if (ask.body) args.push('-H', 'content-type: application/json', '--data', ask.body);
    args.push(`${base}${ask.path}`);
    const out = Bun.spawnSync(ns ? ['ip', 'netns', 'exec', ns, ...args] : args).stdout.toString().trim().split(' ');
    if (out[2] !== '200') throw new Error(`${ask.name}: HTTP ${out[2]}`);
    return { bytes: Number(out[0]), ms: Number(out[1]) * 1000, firstMs: Number(out[3]) * 1000 };
  };
  const links: { name: string; base: string; ns?: string }[] = [{ name: 'loopback', base: `http://127.0.0.1:${port}` }];
  if (values.shaped) {
    shape(values.rate!);
    links.push({ name: `veth, ${values.rate} each way`, base: `http://${SHAPED.hostIp}:${port}`, ns: SHAPED.ns });
  }
  console.log('\n| link | answer | identity bytes | gzip bytes | identity ms to first / last byte | gzip ms to first / last byte | gzip/identity, last byte |\n|---|---|---|---|---|---|---|');
  for (const link of links) {
    for (const ask of asks) {
      const runs = { identity: [] as number[], gzip: [] as number[] };
      const first = { identity: [] as number[], gzip: [] as number[] };
      const bytes = { identity: 0, gzip: 0 };
      curl(link.base, ask, false, link.ns); // warm
      for (let i = 0; i < rounds; i++) {
        for (const gzip of i % 2 ? [true, false] : [false, true]) {
          const r = curl(link.base, ask, gzip, link.ns);
          runs[gzip ? 'gzip' : 'identity'].push(r.ms);
          first[gzip ? 'gzip' : 'identity'].push(r.firstMs);
          bytes[gzip ? 'gzip' : 'identity'] = r.bytes;
        }
      }
      const [a, b] = [median(runs.identity), median(runs.gzip)];
      const [fa, fb] = [median(first.identity), median(first.gzip)];
      console.log(`| ${link.name} | ${ask.name} | ${bytes.identity.toLocaleString()} | ${bytes.gzip.toLocaleString()} | ${fmt(fa, 1)} / ${fmt(a, 1)} | ${fmt(fb, 1)} / ${fmt(b, 1)} | ${fmt(b / a)} |`);
    }
  }
} finally {
  server.stop();
  if (values.shaped) unshape();
  rmSync(work, { recursive: true, force: true });
}
