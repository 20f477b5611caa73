import type { Statement } from 'bun:sqlite';
import type { FacilityIndex } from '../index/facility-index';

/** Spec 2.4's four fields of a facility, the row shape of a portfolio result (and of an area item, less the distance). */
export type FacilityBrief = { registry_id: string; fac_name: string; overall_score: number; active_enforcement: boolean };

type Raw = { registry_id: string; fac_name: string; overall_score: number; active_enforcement: number };

// Prepared once per open index (dropped with it).
const statements = new WeakMap<FacilityIndex, Statement<Raw, [string]>>();

/**
 * The briefs of those `ids` that are in the index, keyed by ID, in one statement (the IDs go in
 * as one JSON array through json_each, never spliced into SQL). Unknown IDs are simply absent.
 */
export function briefsOf(index: FacilityIndex, ids: readonly string[]): Map<string, FacilityBrief> {
  let stmt = statements.get(index);
  if (!stmt) {
    stmt = index.db.prepare<Raw, [string]>(
      'SELECT registry_id, fac_name, overall_score, active_enforcement FROM facility WHERE registry_id IN (SELECT value FROM json_each(?))',
    );
    statements.set(index, stmt);
  }
  const out = new Map<string, FacilityBrief>();
  if (ids.length === 0) return out;
  for (const r of stmt.all(JSON.stringify(ids))) out.set(r.registry_id, { ...r, active_enforcement: r.active_enforcement === 1 });
  return out;
}
