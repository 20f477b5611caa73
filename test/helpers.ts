import { SpatialHandle } from '../src/area/spatial-handle';
import { buildSpatialIndex } from '../src/index/area/spatial-columns';
import { generateKey } from '../src/access/key-format';
import type { Tier } from '../src/tiers';
import { Value } from '@sinclair/typebox/value';
import { expect } from 'bun:test';
import { createApp } from '../src/api/app';
import { makeConfig, type Config } from '../src/config';
import { tempDir } from './support/temp-dir';
import { processParts, type AppDeps } from '../src/api/deps';
import { Meta } from '../src/shared/envelope';
import { FacilityIndex } from '../src/index/facility-index';
import { IndexWriter } from '../src/index/index-writer';
import type { FacilityRow } from '../src/index/model';
import type { ScoreInputs } from '../src/scoring/model';
import { SqliteStateStore } from '../src/state/sqlite-store';
import type { StateStore } from '../src/state/store';

/** 2026-11-15T12:00:00Z: mid-month, so month-boundary tests move the clock explicitly. */
export const FIXED_NOW = Date.UTC(2026, 10, 15, 12, 0, 0);

/** A clock tests can move. */
export function fixedClock(start = FIXED_NOW) {
  let now = start;
  const clock = () => now;
  clock.set = (t: number) => void (now = t);
  clock.advance = (ms: number) => void (now += ms);
  return clock as (() => number) & { set(t: number): void; advance(ms: number): void };
}

export const CLEAN_INPUTS: ScoreInputs = {
  qtrs_with_nc: 0,
  history: '____________',
  compliance_status: 'No Violation Identified',
  snc_flag: false,
  programs_in_snc: 0,
  inspection_count: 1,
  informal_action_count: 0,
  formal_action_count: 0,
  penalty_count: 0,
  total_penalties_usd: 0,
  last_penalty_usd: 0,
  date_last_penalty: null,
  date_last_formal_action: null,
  date_last_informal_action: null,
  date_last_inspection: '2025-03-01',
  federal_cases: 0,
  federal_penalties_usd: 0,
  date_last_federal_case: null,
  federal_case_ids: [],
  facility_active: true,
  programs: { caa: null, cwa: null, rcra: null, sdwa: null },
  not_reported: [],
};

/** Clean score inputs with `overrides` applied: one scenario of a score table. */
export function inputsWith(overrides: Partial<ScoreInputs>): ScoreInputs {
  return { ...CLEAN_INPUTS, ...overrides };
}

/** A fictitious facility row (IDs start with 99); override any field. */
export function facility(overrides: Partial<FacilityRow> & { registry_id: string }): FacilityRow {
  return {
    fac_name: `TEST FACILITY ${overrides.registry_id}`,
    fac_street: '100 MAIN ST',
    fac_city: 'SPRINGFIELD',
    fac_state: 'IL',
    fac_zip: '62701',
    lat: 39.7817,
    lng: -89.6501,
    fac_naics: '325110',
    overall_score: 87,
    active_enforcement: false,
    baseline: 15,
    violation_frequency: 12,
    penalty_severity: 25,
    recency: 20,
    repeat_offender: 15,
    score_hash: `hash-${overrides.registry_id}`,
    score_inputs: CLEAN_INPUTS,
    ...overrides,
  };
}

/** An in-memory index holding exactly `rows`. */
export function memoryIndex(rows: FacilityRow[], info: Partial<{ dataset_name: string; as_of: string; fictitious: boolean }> = {}): FacilityIndex {
  const w = new IndexWriter(':memory:');
  for (const r of rows) w.add(r);
  w.finish({
    dataset_name: info.dataset_name ?? 'test fixture',
    as_of: info.as_of ?? '2026-11-01',
    score_version: 'test',
    fictitious: info.fictitious ?? true,
    built_at: new Date(FIXED_NOW).toISOString(),
    sources: [],
    row_counts: { accepted: rows.length },
  });
  return new FacilityIndex(w.database);
}

export const DEFAULT_ROWS: FacilityRow[] = [
  facility({ registry_id: '990000000001' }),
  facility({ registry_id: '990000000002', overall_score: 41, active_enforcement: true, violation_frequency: 3, penalty_severity: 8, recency: 5, repeat_offender: 10 }),
  facility({ registry_id: '990000000003', fac_name: 'GULF COAST REFINING (FICTITIOUS)', fac_city: 'HOUSTON', fac_state: 'TX', fac_zip: '77002', lat: 29.7604, lng: -95.3698 }),
];

export type TestWorld = {
  app: ReturnType<typeof createApp>;
  deps: AppDeps;
  store: StateStore;
  clock: ReturnType<typeof fixedClock>;
  logs: Record<string, unknown>[];
  /** Creates an account of `tier` with a live key; returns the raw key. */
  keyFor(tier: Tier, opts?: { monthlyLimit?: number | null; subject?: string }): Promise<{ key: string; accountId: string }>;
  /** `app.handle` on a path, with an optional API key. */
  call(path: string, init?: RequestInit & { key?: string }): Promise<Response>;
};

/** One small world per test file: app over an in-memory index and state store, fixed clock. */
export function makeWorld(opts: { rows?: FacilityRow[]; config?: Partial<Config>; store?: StateStore; deps?: Partial<AppDeps> } = {}): TestWorld {
  const clock = fixedClock();
  const logs: Record<string, unknown>[] = [];
  const store = opts.store ?? new SqliteStateStore(':memory:');
  // each world keeps its files (the report cache) in a fresh dir: a PDF made by older code is never served to a test
  const config = makeConfig({ logRequests: false, stateDir: tempDir('world'), ...opts.config });
  const log = (e: Record<string, unknown>) => void logs.push(e);
  const index = opts.deps?.index ?? memoryIndex(opts.rows ?? DEFAULT_ROWS);
  const deps: AppDeps = {
    ...processParts(config, clock, log),
    config,
    index,
    // Built now (milliseconds for test rows); a test of the not-yet-ready case passes a pending handle.
    spatial: opts.deps?.spatial ?? SpatialHandle.of(buildSpatialIndex(index)),
    store,
    clock,
    log,
    ...opts.deps,
  };
  const app = createApp(deps);
  return {
    app,
    deps,
    store,
    clock,
    logs,
    async keyFor(tier, o = {}) {
      const account = await store.createAccount({ name: `${tier} test`, subject: o.subject ?? '', tier, monthlyLimit: o.monthlyLimit ?? null, now: clock() });
      const k = generateKey();
      await store.setKey(account.id, k.hash, k.prefix, clock());
      return { key: k.key, accountId: account.id };
    },
    call(path, init = {}) {
      const { key, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (key !== undefined) headers.set('x-api-key', key);
      return app.handle(new Request(`http://localhost${path}`, { ...rest, headers }));
    },
  };
}

/**
 * Asserts the envelope's meta shape (when the body has `meta`) and returns the parsed body. A body
 * whose `meta` does not match the `Meta` schema fails the calling test with the body and the
 * first schema error.
 */
export async function json<T = any>(res: Response): Promise<T> {
  const body = (await res.json()) as T;
  if (body !== null && typeof body === 'object' && 'meta' in body) {
    const meta = (body as { meta: unknown }).meta;
    if (!Value.Check(Meta, meta)) {
      const first = Value.Errors(Meta, meta).First();
      const why = first ? `${first.path || '/'}: ${first.message}` : 'no detail';
      throw new Error(`response meta does not match the Meta schema (${why}); body: ${JSON.stringify(body)}`);
    }
    expect(Value.Check(Meta, meta)).toBe(true);
  }
  return body;
}
