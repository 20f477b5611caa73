import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config';
import type { Log } from '../log';
import { RedisStateStore } from './redis-store';
import { SqliteStateStore } from './sqlite-store';
import type { StateStore } from './store';

// stderr, so `keys create --json` keeps a clean stdout.
const stderrLog: Log = (entry) => process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), ...entry })}\n`);

/**
 * The configured state store: Redis when `redisUrl` is set (shared by replicas, Redis's clock),
 * else SQLite under `stateDir`. An unreachable Redis does not stop the process: it starts, answers
 * 503 on state-dependent requests and recovers by itself once Redis is back (docs/replicas.md).
 */
export async function openStateStore(config: Config, opts: { log?: Log; serving?: boolean } = {}): Promise<StateStore> {
  const log = opts.log ?? stderrLog;
  if (config.redisUrl) {
    const store = new RedisStateStore({ url: config.redisUrl, prefix: config.redisPrefix, timeoutMs: config.redisTimeoutMs, connectTimeoutMs: Math.min(config.redisConnectTimeoutMs, config.redisTimeoutMs), clock: 'redis', log });
    if (!(await store.ping())) log({ level: 'warn', msg: 'redis not reachable at start; will keep trying on each request' });
    return store;
  }
  mkdirSync(config.stateDir, { recursive: true });
  const store = new SqliteStateStore(join(config.stateDir, 'state.sqlite'));
  if (opts.serving) await store.checkpointInBackground(log);
  return store;
}
