import { join } from 'node:path';
import { generateKey } from '../../src/access/key-format';
import { createApp } from '../../src/api/app';
import { processParts } from '../../src/api/deps';
import { allocatorEnv } from '../../src/cli/allocator';
import { makeConfig } from '../../src/config';
import type { FacilityIndex } from '../../src/index/facility-index';
import { prepareSpatial } from '../../src/ops/index-preparer';
import { SqliteStateStore } from '../../src/state/sqlite-store';

/**
 * The whole app in this process over `index`, its state in `work` (a fresh directory) and its
 * report cache in `cacheDir`, with an Enterprise key of a billion calls a month: what the
 * benchmarks send requests to with `app.handle`.
 */
export async function inProcessApp(index: FacilityIndex, work: string, cacheDir: string): Promise<{ handle: (req: Request) => Promise<Response>; key: string }> {
  const store = new SqliteStateStore(join(work, 'state.sqlite'));
  const account = await store.createAccount({ name: 'bench', subject: '', tier: 'enterprise', monthlyLimit: 1_000_000_000, now: Date.now() });
  const k = generateKey();
  await store.setKey(account.id, k.hash, k.prefix, Date.now());
  const config = makeConfig({ logRequests: false, stateDir: work, reportCacheDir: cacheDir });
  const app = createApp({ ...processParts(config, Date.now, () => {}), config, index, spatial: prepareSpatial(index, () => {}), store, clock: Date.now, log: () => {} });
  return { handle: (req) => app.handle(req), key: k.key };
}

/**
 * Starts this benchmark again (same PID and arguments) with the allocator setting `serve` runs with
 * (src/cli/allocator.ts), so the app measured in this process allocates as a served one does;
 * a MIMALLOC_PURGE_DELAY already set is kept. Call it first.
 */
export function runAsServed(): void {
  const env = allocatorEnv(['serve'], process.env);
  if (env === null || typeof process.execve !== 'function') return;
  process.execve(process.execPath, [process.execPath, ...process.argv.slice(1)], env);
}
