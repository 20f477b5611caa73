import { existsSync, readdirSync } from 'node:fs';
import { MAIN, ROOT, cli, spawnService, type Service } from '../support/process';

export type Replica = Service;

/** A JWT secret for the account endpoints of test replicas (HS256 mode, docs/accounts.md). */
export const JWT_SECRET = 'replica-test-secret-0123456789abcdef0123456789';

/**
 * `serve` processes sharing one Redis, each on its own free loopback port and its own state dir.
 * Their output is drained continuously (a full pipe would stall a chatty server) and kept for failures.
 */
export async function startReplicas(count: number, o: ReplicaOptions): Promise<Replica[]> {
  return Promise.all(Array.from({ length: count }, (_, i) => startReplica(i, o)));
}

type ReplicaOptions = { redisUrl: string; indexPath: string; stateDir: string; env?: Record<string, string> };

/**
 * Env that runs a replica's clock `offset` ahead (libfaketime, e.g. '+40d'). Preloaded into the
 * serve process itself rather than through the `faketime` wrapper: the wrapper forks, so killing
 * it left the real server running after the suite.
 */
export function fakeTimeEnv(offset: string): Record<string, string> {
  const lib = ['faketime', ...readdirSync('/usr/lib').map((d) => `${d}/faketime`)].map((d) => `/usr/lib/${d}/libfaketime.so.1`).find((f) => existsSync(f));
  if (!lib) throw new Error('libfaketime not found (apt-get install faketime; scripts/setup-test.sh does)');
  return { LD_PRELOAD: lib, FAKETIME: offset };
}

function startReplica(i: number, o: ReplicaOptions): Promise<Replica> {
  const cmd = [process.execPath, MAIN, 'serve', '--port', '0', '--host', '127.0.0.1', '--index', o.indexPath, '--redis-url', o.redisUrl, '--state-dir', `${o.stateDir}/r${i}`, '--trusted-proxies', '127.0.0.1/32'];
  return spawnService(cmd, { cwd: ROOT, env: { ...process.env, FCS_LOG_REQUESTS: '0', FCS_JWT_SECRET: JWT_SECRET, ...o.env } });
}

/** A fresh account + key through the real CLI, written to the same Redis the replicas use. */
export function cliKey(redisUrl: string, tier: string): { key: string; account_id: string } {
  const r = cli(['keys', 'create', '--tier', tier, '--json', '--redis-url', redisUrl]);
  if (r.code !== 0) throw new Error(`keys create failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** Fires `n` requests at once, spread round-robin over the replicas; returns the status of each. */
export async function burst(replicas: Replica[], n: number, path: (i: number) => string, headers: (i: number) => Record<string, string>): Promise<number[]> {
  return Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const res = await fetch(`${replicas[i % replicas.length]!.base}${path(i)}`, { headers: headers(i) });
      await res.arrayBuffer();
      return res.status;
    }),
  );
}

/** `{200: 10, 402: 290}`-style tally of statuses. */
export function tally(statuses: number[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const s of statuses) out[s] = (out[s] ?? 0) + 1;
  return out;
}
