/**
 * The score model's real-semantics property checks, run over every facility of an index by
 * scripts/validate-score.ts: each rescored with one input changed, as docs/scoring.md states them.
 */
import { asOfDay } from '../src/scoring/dates';
import { factsOf } from '../src/scoring/facts';
import { PROGRAMS, type ScoreInputs } from '../src/scoring/model';
import { ENFORCEMENT_WINDOW_MONTHS, DAYS_PER_MONTH } from '../src/scoring/rules';
import { scoreFacility } from '../src/scoring/score';

export type CheckResult = { name: string; checked: number; failed: number; example: string | null };

/** ISO date `months` before `asOf`. */
function monthsBefore(asOf: string, months: number): string {
  return new Date(Date.parse(`${asOf}T00:00:00Z`) - Math.round(months * DAYS_PER_MONTH) * 86_400_000).toISOString().slice(0, 10);
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

const ADDRESS_MONTHS = [2, 6, 11, 13, 24, 48];

/** Runs every check over `facilities` (stored inputs and stored overall score) at `asOf`. */
export function runChecks(facilities: Iterable<{ id: string; inputs: ScoreInputs; overall: number; active: boolean }>, asOf: string): CheckResult[] {
  const checks = {
    stored: { name: 'stored score = fcs model on the stored inputs', checked: 0, failed: 0, example: null as string | null },
    zeroBlank: { name: 'FAC_PROGRAMS_WITH_SNC 0 scores as blank', checked: 0, failed: 0, example: null as string | null },
    oldEvents: { name: 'events dated before the 5-year window (count 0) cost nothing', checked: 0, failed: 0, example: null as string | null },
    addressed: { name: 'SNC addressed by a formal action (2-48 months) >= unaddressed', checked: 0, failed: 0, example: null as string | null },
    active: { name: 'active_enforcement never with 0 actions in the window', checked: 0, failed: 0, example: null as string | null },
  };
  const fail = (c: (typeof checks)[keyof typeof checks], id: string) => {
    c.failed++;
    c.example ??= id;
  };
  for (const { id, inputs, overall, active } of facilities) {
    const r = scoreFacility(inputs, asOf);
    checks.stored.checked++;
    if (r.overall !== overall || r.active_enforcement !== active) fail(checks.stored, id);

    if (inputs.programs_in_snc === 0) {
      checks.zeroBlank.checked++;
      if (scoreFacility({ ...inputs, programs_in_snc: null }, asOf).overall !== r.overall) fail(checks.zeroBlank, id);
    }
    if (hasOldEventOnly(inputs, asOf)) {
      checks.oldEvents.checked++;
      const without = scoreFacility(withoutOldEvents(inputs, asOf), asOf);
      if (without.overall !== r.overall || without.active_enforcement !== r.active_enforcement) fail(checks.oldEvents, id);
    }
    const f = factsOf(inputs, asOf);
    if (f.currentStatus === 'significant' && f.formalActions === 0) {
      checks.addressed.checked++;
      for (const m of ADDRESS_MONTHS) {
        const addressed = { ...inputs, formal_action_count: 1, date_last_formal_action: monthsBefore(asOf, m) };
        if (scoreFacility(addressed, asOf).overall < r.overall) {
          fail(checks.addressed, id);
          break;
        }
      }
    }
    checks.active.checked++;
    if (r.active_enforcement && f.formalActions === 0) fail(checks.active, id);
  }
  return Object.values(checks);
}
