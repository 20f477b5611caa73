import type { FacilityRow } from '../../src/index/model';
import type { Config } from '../../src/config';
import { facility, inputsWith, makeWorld, type TestWorld } from '../helpers';

/** The facility of a pair: one registry ID, place and score in both worlds. */
export const PAIRED = { registry_id: '990000000777', fac_name: 'PAIRED PLATING WORKS', lat: 41.08, lng: -81.52, fac_zip: '44308', overall_score: 96 } as const;

/**
 * The paired facility with one input set: FAC_ACTIVE_FLAG `Y` (its data is enough to judge it) or
 * `N` (inactive: not enough, data_completeness.sufficient false). Everything else is the same row.
 */
export function pairedRow(active: boolean): FacilityRow {
  return facility({ ...PAIRED, fac_street: '7 OAK ST', fac_city: 'AKRON', fac_state: 'OH', score_inputs: inputsWith({ facility_active: active }) });
}

export type PairWorld = TestWorld & { key: string };

/**
 * One world per side of the pair, each holding the paired facility alone (or `rows`), with an
 * Enterprise key. No PDF cache: the two indexes have the same metadata, so one PDF key.
 */
export async function judgedPair(rows: (active: boolean) => FacilityRow[] = (a) => [pairedRow(a)]): Promise<{ judged: PairWorld; unjudged: PairWorld }> {
  const config: Partial<Config> = { reportCacheDir: 'off' };
  const side = async (active: boolean) => {
    const w = makeWorld({ rows: rows(active), config });
    return Object.assign(w, { key: (await w.keyFor('enterprise')).key });
  };
  return { judged: await side(true), unjudged: await side(false) };
}

/** `item` without the named fields: what must be equal on both sides of a pair. */
export function without<T extends Record<string, unknown>>(item: T, ...keys: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(item).filter(([k]) => !keys.some((x) => k === x || k.startsWith(`${x}.`))));
}
