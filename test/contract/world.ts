import { afterAll, beforeAll } from 'bun:test';
import { Database } from 'bun:sqlite';
import { join } from 'node:path';
import { ROOT } from '../support/process';
import type { Service } from '../support/process';
import { tempDir } from '../support/temp-dir';
import type { Target } from './targets';

/** The keys a contract world holds: one per tier, a Free key of its own for the quota, and a Starter key capped at 3 calls a month. */
export type KeyName = 'free' | 'freeQuota' | 'starter' | 'platform' | 'enterprise' | 'capped';
export const CAPPED_LIMIT = 3;

/** A running server the contract suites call: its base URL, its keys, its output, and the sample's first facility. */
export type World = {
  base: string;
  service: Service;
  keys: Record<KeyName, string>;
  facility: { registry_id: string; fac_name: string; address: string; lat: number; lng: number };
  /** Stops the server (idempotent) and resolves with its exit code. */
  stop: (signal?: NodeJS.Signals) => Promise<number>;
};

/** The embedded sample's first facility, read with plain SQLite (not the code under test). */
export function sampleFacility(): World['facility'] {
  const db = new Database(join(ROOT, 'data', 'sample.sqlite'), { readonly: true });
  const row = db.query('SELECT registry_id, fac_name, fac_street, fac_city, fac_state, fac_zip, lat, lng FROM facility ORDER BY registry_id LIMIT 1').get() as Record<string, any>;
  db.close();
  return { registry_id: row.registry_id, fac_name: row.fac_name, address: `${row.fac_street}, ${row.fac_city}, ${row.fac_state} ${row.fac_zip}`, lat: row.lat, lng: row.lng };
}

/** fetch on the world's base URL. */
export function call(w: World, path: string, init: RequestInit & { key?: KeyName } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (init.key) headers.set('x-api-key', w.keys[init.key]);
  return fetch(`${w.base}${path}`, { ...init, headers });
}

/**
 * One server of `target` for a whole describe block: keys made with the target's own CLI in a fresh
 * state dir, then `serve` started on it (request logging on, as shipped). Returns a getter.
 */
export function contractWorld(target: Target): () => World {
  let world: World | null = null;
  beforeAll(async () => {
    target.prepare();
    const stateDir = tempDir('contract-state');
    const make = (tier: string) => {
      const r = target.cli(['keys', 'create', '--tier', tier, '--json', '--state-dir', stateDir]);
      if (r.code !== 0) throw new Error(`keys create --tier ${tier}: ${r.stderr}`);
      return JSON.parse(r.stdout) as { key: string; account_id: string };
    };
    const capped = make('starter');
    const limited = target.cli(['keys', 'set-limit', capped.account_id, String(CAPPED_LIMIT), '--state-dir', stateDir]);
    if (limited.code !== 0) throw new Error(`keys set-limit: ${limited.stderr}`);
    const keys = {
      free: make('free').key,
      freeQuota: make('free').key,
      starter: make('starter').key,
      platform: make('platform').key,
      enterprise: make('enterprise').key,
      capped: capped.key,
    };
    const service = await target.serve(['--state-dir', stateDir]);
    let exited: Promise<number> | null = null;
    const stop = (signal: NodeJS.Signals = 'SIGKILL') => (exited ??= service.stop(signal));
    world = { base: service.base, service, keys, facility: sampleFacility(), stop };
  }, 180_000);
  afterAll(async () => {
    await world?.stop();
  });
  return () => {
    if (!world) throw new Error('the contract world did not start');
    return world;
  };
}
