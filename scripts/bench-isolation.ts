#!/usr/bin/env bun
/**
 * Whether one account's heavy renders slow another account's lookups (docs/operations.md, "Render
 * pool"). For each checkout given (default: this one), `serve` of that checkout on the index over
 * loopback, then:
 *   alone:  account B asks for lookups of random facilities one after another for --seconds;
 *   loaded: the same while account A keeps --concurrency site report PDFs in flight, each a new
 *           document (a new `name`: never a cache hit) at a site of the densest metro with every
 *           search distance --miles; a 429 is retried after its Retry-After, as a client would.
 * Prints B's lookup p50/p99 in both phases, A's PDFs made and refused, and the server's RSS before
 * A's load, its peak (sampled every 100 ms) and 5 s after, all and anonymous (heaps; the rest is
 * the index files' mapped pages, page cache the kernel can drop). Not pinned: the server's render workers use the
 * second core. Run it alone (it loads both cores):
 *   npx bun run scripts/bench-isolation.ts [checkout ...] [--index PATH] [--seconds 30] [--concurrency 8] [--miles 1] [--env K=V ...]
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Database } from 'bun:sqlite';
import { densestSquare, drawSites } from './bench/metro-sites';
import { benchKey, fmt, randomIds, startChild } from './bench/wrk';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { index: { type: 'string' }, seconds: { type: 'string' }, concurrency: { type: 'string' }, miles: { type: 'string' }, env: { type: 'string', multiple: true } },
});
const indexPath = resolve(values.index ?? 'var/bench/national.sqlite');
const seconds = Number(values.seconds ?? 30);
const concurrency = Number(values.concurrency ?? 8);
const miles = Number(values.miles ?? 1);
const env = Object.fromEntries((values.env ?? []).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
const checkouts = positionals.length > 0 ? positionals.map((p) => resolve(p)) : [resolve(import.meta.dir, '..')];
const CATEGORY_KEYS = ['adjoining', 'snc', 'enforcement', 'rcra_tsd', 'rcra_generator', 'tri', 'npdes', 'caa_major'];

const { ids } = randomIds(indexPath, 20_000);
const db = new Database(indexPath, { readonly: true });
const square = densestSquare(db);
const sites = drawSites(db, square, 1, 60);
db.close();

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
/** MB of a /proc/PID/status field: VmRSS (all resident), RssAnon (heaps: what load adds), RssFile (mapped index pages: page cache). */
const rssOf = (pid: number, field: 'VmRSS' | 'RssAnon' | 'RssFile') => Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`${field}:\\s+(\\d+)`))![1]) / 1024;

/** B's lookups, one after another until `until`: each one's milliseconds. */
async function lookups(base: string, key: string, until: number): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; performance.now() < until; i++) {
    const t0 = performance.now();
    const res = await fetch(`${base}/api/v1/facility/${ids[i % ids.length]}`, { headers: { 'x-api-key': key } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`lookup answered ${res.status}`);
    ms.push(performance.now() - t0);
  }
  return ms;
}

async function measure(checkout: string) {
  const work = mkdtempSync(join(tmpdir(), 'fcs-bench-isolation-'));
  const main = join(checkout, 'src', 'main.ts');
  const keyA = benchKey(['--state-dir', work], main, 'platform');
  const keyB = benchKey(['--state-dir', work], main, 'enterprise');
  const cmd = [process.execPath, main, 'serve', '--index', indexPath, '--port', '0', '--host', '127.0.0.1', '--state-dir', work];
  const server = await startChild(cmd, /"port":(\d+)/, { FCS_LOG_REQUESTS: '0', ...env });
  const base = `http://127.0.0.1:${server.output.match(/"port":(\d+)/)![1]}`;
  try {
    // warm both paths (JIT, page cache, the render workers' start)
    await lookups(base, keyB, performance.now() + 2000);
    const distances = Object.fromEntries(CATEGORY_KEYS.map((k) => [k, miles]));
    let made = 0, refused = 0, n = 0;
    const pdf = async () => {
      const s = sites[n % sites.length]!;
      const res = await fetch(`${base}/api/v1/site-report?format=pdf`, {
        method: 'POST',
        headers: { 'x-api-key': keyA, 'content-type': 'application/json' },
        body: JSON.stringify({ lat: s.lat, lng: s.lng, name: `bench ${n++}`, search_distances: distances }),
      });
      await res.arrayBuffer();
      return res;
    };
    await pdf();
    const alone = await lookups(base, keyB, performance.now() + seconds * 1000);

    let loading = true;
    const clients = Array.from({ length: concurrency }, async () => {
      while (loading) {
        const res = await pdf();
        if (res.status === 200) made++;
        else if (res.status === 429 || res.status === 503) {
          refused++;
          await Bun.sleep(Number(res.headers.get('retry-after') ?? 1) * 1000);
        } else throw new Error(`site report answered ${res.status}`);
      }
    });
    const before = { rss: rssOf(server.pid, 'VmRSS'), anon: rssOf(server.pid, 'RssAnon') };
    const peak = { rss: 0, anon: 0, file: 0 };
    const sampler = setInterval(() => {
      peak.rss = Math.max(peak.rss, rssOf(server.pid, 'VmRSS'));
      peak.anon = Math.max(peak.anon, rssOf(server.pid, 'RssAnon'));
      peak.file = Math.max(peak.file, rssOf(server.pid, 'RssFile'));
    }, 100);
    // the load runs a second before B's lookups are measured
    await Bun.sleep(1000);
    const loaded = await lookups(base, keyB, performance.now() + seconds * 1000);
    loading = false;
    await Promise.all(clients);
    clearInterval(sampler);
    await Bun.sleep(5000);
    const after = { rss: rssOf(server.pid, 'VmRSS'), anon: rssOf(server.pid, 'RssAnon') };
    return { alone, loaded, made, refused, before, peak, after };
  } finally {
    server.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

console.log(`index ${indexPath}; densest metro lat ${square.y / 5}..${(square.y + 1) / 5}, lng ${square.x / 5}..${(square.x + 1) / 5} (${square.n.toLocaleString()} facilities)`);
console.log(`B: lookups one at a time, ${seconds} s per phase; A: ${concurrency} site report PDFs in flight, every distance ${miles} mi, new name each${Object.keys(env).length ? `; env ${JSON.stringify(env)}` : ''}`);
for (const checkout of checkouts) {
  const r = await measure(checkout);
  console.log(`\n${checkout}`);
  console.log(`  B lookup alone:    p50 ${fmt(percentile(r.alone, 50))} ms  p99 ${fmt(percentile(r.alone, 99))} ms  (${r.alone.length} lookups)`);
  console.log(`  B lookup under A:  p50 ${fmt(percentile(r.loaded, 50))} ms  p99 ${fmt(percentile(r.loaded, 99))} ms  (${r.loaded.length} lookups)`);
  console.log(`  A: ${r.made} PDFs made, ${r.refused} refused (429/503, retried after Retry-After)`);
  console.log(`  server RSS MB (all / anonymous): before A ${fmt(r.before.rss, 0)} / ${fmt(r.before.anon, 0)}; peak ${fmt(r.peak.rss, 0)} / ${fmt(r.peak.anon, 0)} (mapped index pages ${fmt(r.peak.file, 0)}); 5 s after ${fmt(r.after.rss, 0)} / ${fmt(r.after.anon, 0)}`);
}
