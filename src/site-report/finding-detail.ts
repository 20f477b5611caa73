import { t, type Static } from '../shared/typebox';
import type { Evidence } from '../index/evidence';
import { latestActionOf } from '../facilities/evidence';

const Ids = (column: string) => t.Array(t.String(), { description: `${column}: empty when the facility is not in the program or the source has no such column` });

/** What a reader needs to pull a finding's file from the program's own system (docs/site-report.md, "Findings"). */
export const FindingDetail = {
  program_ids: t.Object(
    { air: Ids('AIR_IDS'), npdes: Ids('NPDES_IDS'), rcra: Ids('RCRA_IDS'), sdwa: Ids('SDWA_IDS'), tri: Ids('TRI_IDS') },
    { description: 'Program system IDs, as the ECHO exporter lists them' },
  ),
  rcra_generator_size: t.Union([t.UnionEnum(['LQG', 'SQG', 'VSQG']), t.Null()], {
    description: 'RCRA_PERMIT_TYPES: large, small or very small quantity generator (CESQG, the older name, reads VSQG); the largest when several; null: not a generator',
  }),
  latest_violation_quarter: t.Union([t.String({ pattern: '^[0-9]{4}-Q[1-4]$', examples: ['2026-Q2'] }), t.Null()], {
    description: 'The latest quarter marked V or S in the CAA, CWA or RCRA quarterly history; the last quarter of a history is the as-of date\'s. Null: none in the window',
  }),
  latest_action_date: t.Union([t.String({ format: 'date' }), t.Null()], { description: 'The latest formal or informal action, EPA or state' }),
};
export type FindingDetail = { [K in keyof typeof FindingDetail]: Static<(typeof FindingDetail)[K]> };

const NO_IDS: readonly string[] = Object.freeze([]);

/** The quarter `back` quarters before the one holding `asOf` (YYYY-MM-DD), as YYYY-Qn. */
export function quarterBefore(asOf: string, back: number): string {
  const q = Number(asOf.slice(0, 4)) * 4 + Math.floor((Number(asOf.slice(5, 7)) - 1) / 3) - back;
  return `${Math.floor(q / 4)}-Q${(q % 4) + 1}`;
}

/** Quarters back from the latest of the last V or S of a history (oldest first), or -1. */
function lastViolationBack(history: string | null): number {
  if (!history) return -1;
  const at = Math.max(history.lastIndexOf('V'), history.lastIndexOf('S'));
  return at < 0 ? -1 : history.length - 1 - at;
}

/** A finding's detail from the facility's stored evidence (read once per finding). */
export function findingDetailOf(e: Evidence, asOf: string): FindingDetail {
  const u = e.rcra_universes ?? NO_IDS;
  const backs = [lastViolationBack(e.caa_history), lastViolationBack(e.cwa_history), lastViolationBack(e.rcra_history)].filter((b) => b >= 0);
  return {
    program_ids: { air: (e.air_ids ?? NO_IDS) as string[], npdes: (e.npdes_ids ?? NO_IDS) as string[], rcra: (e.rcra_ids ?? NO_IDS) as string[], sdwa: (e.sdwa_ids ?? NO_IDS) as string[], tri: (e.tri_ids ?? NO_IDS) as string[] },
    rcra_generator_size: u.includes('LQG') ? 'LQG' : u.includes('SQG') ? 'SQG' : u.includes('VSQG') || u.includes('CESQG') ? 'VSQG' : null,
    latest_violation_quarter: backs.length === 0 ? null : quarterBefore(asOf, Math.min(...backs)),
    latest_action_date: latestActionOf(e).date,
  };
}
