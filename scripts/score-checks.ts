/**
 * The score model's real-semantics property checks, run over every facility of an index by
 * scripts/validate-score.ts: each rescored with one input changed, as docs/scoring.md states them.
 */
import { asOfDay } from '../src/scoring/dates';
import { factsOf } from '../src/scoring/facts';
import { PROGRAMS, type ScoreInputs } from '../src/scoring/model';
import { ENFORCEMENT_WINDOW_MONTHS, DAYS_PER_MONTH, RECENT_ACTION_MONTHS } from '../src/scoring/rules';
import { scoreFacility } from '../src/scoring/score';

export type CheckResult = { name: string; checked: number; failed: number; example: string | null };

/** ISO date `months` before `asOf`, in whole days, never further back than `months` (the run's start is a bound). */
function monthsBefore(asOf: string, months: number): string {
  return new Date(Date.parse(`${asOf}T00:00:00Z`) - Math.floor(months * DAYS_PER_MONTH) * 86_400_000).toISOString().slice(0, 10);
}

/** The same inputs with every date older than the 5-year window (and a last amount dated so) removed. */
function withoutOldEvents(i: ScoreInputs, asOf: string): ScoreInputs {
  const cutoff = asOfDay(asOf) - ENFORCEMENT_WINDOW_MONTHS * DAYS_PER_MONTH;
  const old = (d: string | null) => d !== null && asOfDay(d) < cutoff;
  const programs = { ...i.programs };
  for (const k of PROGRAMS) {
    const p = programs[k];
    if (!p) continue;
    programs[k] = {
      ...p,
      last_penalty_date: old(p.last_penalty_date) ? null : p.last_penalty_date,
      last_penalty_usd: old(p.last_penalty_date) ? 0 : p.last_penalty_usd,
      last_formal_action_date: old(p.last_formal_action_date) ? null : p.last_formal_action_date,
    };
  }
  const fecOld = old(i.date_last_federal_case);
  return {
    ...i,
    date_last_penalty: old(i.date_last_penalty) ? null : i.date_last_penalty,
    last_penalty_usd: old(i.date_last_penalty) ? 0 : i.last_penalty_usd,
    date_last_formal_action: old(i.date_last_formal_action) ? null : i.date_last_formal_action,
    date_last_informal_action: old(i.date_last_informal_action) ? null : i.date_last_informal_action,
    date_last_federal_case: fecOld ? null : i.date_last_federal_case,
    federal_cases: fecOld ? 0 : i.federal_cases,
    federal_case_ids: fecOld ? [] : i.federal_case_ids,
    federal_penalties_usd: fecOld ? 0 : i.federal_penalties_usd,
    programs,
  };
}

/** Only the date-only (count 0) old events: with a 5-year count the events are in the window, just undated there. */
function hasOldEventOnly(i: ScoreInputs, asOf: string): boolean {
  const f = factsOf(i, asOf);
  return [f.formal, f.penalties, f.informal, f.federal].some((e) => e.olderDate !== null && e.count === 0);
}

/** `inputs` with one more formal action dated `date`, with a penalty of `usd` (0: none) on the same date. */
function withAction(i: ScoreInputs, date: string, usd: number): ScoreInputs {
  const out: ScoreInputs = { ...i, formal_action_count: (i.formal_action_count ?? 0) + 1, date_last_formal_action: date };
  if (usd > 0) Object.assign(out, { penalty_count: (i.penalty_count ?? 0) + 1, total_penalties_usd: (i.total_penalties_usd ?? 0) + usd, last_penalty_usd: usd, date_last_penalty: date });
  return out;
}

/** Where in the run an answering action is dated (share of the run back from the as-of date), and its penalty. */
const ANSWER_AT = [0, 0.5, 1];
const ANSWER_USD = [0, 500, 10_000, 1_000_000, 100_000_000];

const CHECKS = {
  stored: 'stored score and flag = the fcs model on the stored inputs',
  zeroBlank: 'FAC_PROGRAMS_WITH_SNC 0 scores as blank',
  oldEvents: 'events dated before the 5-year window (count 0) cost nothing',
  answered: 'SNC answered in its run (any penalty, any age) >= unanswered',
  beforeRun: 'an action dated before the run does not answer it, never raises',
  longerRun: 'an unanswered SNC one quarter longer never scores higher',
  effluent: 'one more effluent exceedance never scores higher',
  active: 'active_enforcement only with an action dated in 12 months or an answered SNC',
  undatedCase: 'an undated federal case number alone never sets active_enforcement',
} as const;

/** Runs every check over `facilities` (stored inputs, stored overall score and flag) at `asOf`. */
export function runChecks(facilities: Iterable<{ id: string; inputs: ScoreInputs; overall: number; active: boolean }>, asOf: string): CheckResult[] {
  const checks = Object.fromEntries(Object.entries(CHECKS).map(([k, name]) => [k, { name, checked: 0, failed: 0, example: null as string | null }])) as Record<
    keyof typeof CHECKS,
    CheckResult
  >;
  const check = (c: CheckResult, id: string, ok: boolean) => {
    c.checked++;
    if (!ok) {
      c.failed++;
      c.example ??= id;
    }
  };
  for (const { id, inputs, overall, active } of facilities) {
    const r = scoreFacility(inputs, asOf);
    check(checks.stored, id, r.overall === overall && r.active_enforcement === active);
    if (inputs.programs_in_snc === 0) check(checks.zeroBlank, id, scoreFacility({ ...inputs, programs_in_snc: null }, asOf).overall === r.overall);
    if (hasOldEventOnly(inputs, asOf)) {
      const without = scoreFacility(withoutOldEvents(inputs, asOf), asOf);
      check(checks.oldEvents, id, without.overall === r.overall && without.active_enforcement === r.active_enforcement);
    }
    const f = factsOf(inputs, asOf);
    if (f.currentStatus === 'significant' && f.sncAnsweredBy === null) {
      const runMonths = 3 * f.sncRunQuarters;
      let ok = true;
      for (const at of ANSWER_AT) for (const usd of ANSWER_USD) ok &&= scoreFacility(withAction(inputs, monthsBefore(asOf, at * runMonths), usd), asOf).overall >= r.overall;
      check(checks.answered, id, ok);
      if (runMonths + 0.1 <= ENFORCEMENT_WINDOW_MONTHS) {
        const before = withAction(inputs, monthsBefore(asOf, runMonths + 0.1), 10_000);
        check(checks.beforeRun, id, factsOf(before, asOf).sncAnsweredBy === null && scoreFacility(before, asOf).overall <= r.overall);
      }
      const h = inputs.history ?? '';
      if (h.length === 12 && f.sncRunQuarters < 12) {
        const longer = { ...inputs, history: `${h.slice(0, 11 - f.sncRunQuarters)}S${h.slice(12 - f.sncRunQuarters)}` };
        if (factsOf(longer, asOf).sncAnsweredBy === null) check(checks.longerRun, id, scoreFacility(longer, asOf).overall <= r.overall);
      }
    }
    const cwa = inputs.programs.cwa;
    if (cwa) check(checks.effluent, id, scoreFacility({ ...inputs, programs: { ...inputs.programs, cwa: { ...cwa, effluent_exceedances: (cwa.effluent_exceedances ?? 0) + 1 } } }, asOf).overall <= r.overall);
    const latest = [f.formal.latest, f.federal.latest].filter((e) => e !== null).map((e) => e.monthsAgo);
    const recent = latest.some((m) => m <= RECENT_ACTION_MONTHS);
    check(checks.active, id, r.active_enforcement === (recent || f.sncAnsweredBy === 'formal_action' || f.sncAnsweredBy === 'federal_case'));
    if (!r.active_enforcement) check(checks.undatedCase, id, !scoreFacility({ ...inputs, federal_case_ids: [...(inputs.federal_case_ids ?? []), 'UNDATED-CASE-1'] }, asOf).active_enforcement);
  }
  return Object.values(checks);
}
