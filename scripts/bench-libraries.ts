#!/usr/bin/env bun
/**
 * In-process A/B of the pieces a library now does (CSV writing, the report cache's memory tier,
 * IP/CIDR matching, webhook signing) against another checkout's version of the same modules:
 *   npx bun run scripts/bench-libraries.ts <checkout A> [--rounds 7]
 * B is this checkout. Rounds alternate A and B; each prints the median time per call and B/A
 * (< 1: B is faster). One process, one thread: compare ratios, not absolute figures.
 */
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { rounds: { type: 'string', default: '7' } } });
if (positionals.length !== 1) {
  console.error('usage: npx bun run scripts/bench-libraries.ts <checkout A> [--rounds 7]');
  process.exit(2);
}
const A = resolve(positionals[0]!);
const B = resolve(import.meta.dir, '..');
const rounds = Number(values.rounds);
const load = (root: string, path: string) => import(join(root, 'src', path));

/** Median µs per call of `fn` over `rounds` timed batches of `n` calls, A and B alternating. */
function compare(name: string, n: number, a: () => unknown, b: () => unknown) {
  const times: [number[], number[]] = [[], []];
  for (let r = 0; r < rounds; r++) {
    for (const [i, fn] of [a, b].entries()) {
      const t0 = Bun.nanoseconds();
      for (let k = 0; k < n; k++) fn();
      times[i]!.push((Bun.nanoseconds() - t0) / n / 1000);
    }
  }
  const med = (xs: number[]) => xs.sort((x, y) => x - y)[xs.length >> 1]!;
  const [ma, mb] = [med(times[0]), med(times[1])];
  console.log(`${name.padEnd(44)} A ${ma.toFixed(2).padStart(9)} µs  B ${mb.toFixed(2).padStart(9)} µs  B/A ${(mb / ma).toFixed(3)}`);
}

// CSV: a 500-facility area export's rows (nested peers, a name needing quotes, a formula-looking one).
const items = Array.from({ length: 500 }, (_, i) => ({
  registry_id: String(110000000000 + i),
  fac_name: i % 50 === 0 ? `ACME, "PLANT" ${i}` : i % 77 === 0 ? `=HYPERLINK("x")` : `FACILITY NUMBER ${i}`,
  overall_score: (i * 37) % 100,
  active_enforcement: i % 3 === 0,
  peers: { naics: '325211', peer_count: 40, percentile: i % 100, median_score: 71 },
  score_change: null,
  location: { lat: 41 + i / 1000, lng: -81 - i / 1000 },
}));
const [csvA, csvB] = [(await load(A, 'exports/csv.ts')).toCsv, (await load(B, 'exports/csv.ts')).toCsv];
compare('CSV of 500 facilities (exports/csv.ts)', 200, () => csvA(items), () => csvB(items));

// Memory tier: hits and inserts over 200 PDFs of 100-300 KB in a 16 MiB budget.
const pdfs = Array.from({ length: 200 }, (_, i) => new Uint8Array(100_000 + (i % 3) * 100_000));
const hot = async (root: string) => {
  const { HotEntries } = await load(root, 'reports/hot-entries.ts');
  const h = new HotEntries(16 * 1024 * 1024);
  let i = 0;
  return () => {
    const k = `k${(i * 7919) % 200}`;
    if (h.get(k, 1000, 86_400_000) === null) h.set(k, 0, pdfs[i % 200]!);
    i++;
  };
};
compare('report memory tier get/set (reports/hot-entries.ts)', 200_000, await hot(A), await hot(B));

// Demo client key: a peer in the trusted proxies with a three-hop X-Forwarded-For.
const resolver = async (root: string) => (await load(root, 'demo/client-ip.ts')).clientResolver(['10.0.0.0/8', 'fd00::/8']);
const [ra, rb] = [await resolver(A), await resolver(B)];
compare('demo client from X-Forwarded-For (demo/client-ip.ts)', 100_000, () => ra('10.1.2.3', '203.0.113.9, 2001:db8::1, 10.9.9.9'), () => rb('10.1.2.3', '203.0.113.9, 2001:db8::1, 10.9.9.9'));

// Webhook allow-list: an IPv4 and an IPv6 target against a mixed list.
const allow = async (root: string) => new (await load(root, 'watchlists/webhooks/allow-list.ts')).WebhookAllowList(['hooks.example.com', '*.partner.example', '10.20.0.0/16', 'fd00::/8', '127.0.0.1']);
const [la, lb] = [await allow(A), await allow(B)];
compare('webhook allow-list check (webhooks/allow-list.ts)', 100_000, () => la.allows('10.20.3.4') && la.allows('[fd00::1]'), () => lb.allows('10.20.3.4') && lb.allows('[fd00::1]'));

// Webhook signing of a 2 KB event body.
const body = JSON.stringify({ type: 'facility.score_changed', data: 'x'.repeat(2000) });
const secret = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
const [sa, sb] = [(await load(A, 'watchlists/webhooks/signing.ts')).signedHeaders, (await load(B, 'watchlists/webhooks/signing.ts')).signedHeaders];
compare('webhook signature of a 2 KB body (signing.ts)', 20_000, () => sa(secret, 'msg_1', 1_700_000_000, body), () => sb(secret, 'msg_1', 1_700_000_000, body));
