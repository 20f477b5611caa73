import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config';
import { SqliteStateStore } from './sqlite-store';
import type { StateStore } from './store';

/** The configured state store: Redis when `redisUrl` is set, else SQLite under `stateDir`. */
export async function openStateStore(config: Config): Promise<StateStore> {
  mkdirSync(config.stateDir, { recursive: true });
  return new SqliteStateStore(join(config.stateDir, 'state.sqlite'));
}
