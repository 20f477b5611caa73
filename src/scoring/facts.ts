import { t, type Static } from '../shared/typebox';
import { safeAmount, safeCount } from './counts';
import { asOfDay } from './dates';
import { DatedEvent, datedInWindow, EventDates, EventFacts, inWindowOrUndated } from './events';
import type { ScoreInputs } from './model';
import { programFacts } from './programs';
import { HISTORY_QUARTERS } from './rules';
import { statusOf } from './status';

export { safeAmount, safeCount } from './counts';
export { statusOf } from './status';
export { EventFacts } from './events';

/** Score inputs after sanitising: every number finite or clamped, every event limited to its window, programs folded in. */
export const ScoreFacts = t.Object({
  asOf: t.String(),
  /** Last 12 chars of the facility history, upper-cased; usable for timing only when all 12 quarters are there. */
  history: t.String(),
  historyUsable: t.Boolean(),
  quartersInViolation: t.Integer({ minimum: 0, maximum: HISTORY_QUARTERS }),
  significantQuarters: t.Integer({ minimum: 0, maximum: HISTORY_QUARTERS }),
  /** `U` quarters of the facility history (of a program's when the facility has none): unknown, not clean. */
  unknownQuarters: t.Integer({ minimum: 0 }),
  /** True when a quarter count (facility or program) reports more quarters than the history string shows. */
  quartersFromCountOnly: t.Boolean(),
  currentStatus: t.Union([t.Literal('none'), t.Literal('violation'), t.Literal('significant')]),
  /** Programs (of caa, cwa, rcra, sdwa) with a violation now or a quarter in violation, and those in SNC now. */
  programsInViolation: t.Array(t.String()),
  programsSignificant: t.Array(t.String()),
  /** Programs whose own quarterly history is read (their latest violation quarter dates a violation). */
  programHistories: t.Array(t.Object({ program: t.String(), history: t.String() })),
  /** In SNC now only under programs whose CWA QNCR code says "resolved pending" (an enforcement response is in place). */
  sncResolvedPending: t.Boolean(),
  /** In SNC now: quarters of its current significant run (the trailing `S` of the facility's or a significant program's history; 1 without one); 0 when not in SNC. */
  sncRunQuarters: t.Integer({ minimum: 0 }),
  /**
   * In SNC now and answered (EPA: addressed) by an enforcement response: a formal action or federal
   * case dated on or after the first quarter of the current run, or a CWA "resolved pending" code;
   * null when not in SNC or unanswered. An undated action or one dated before the run answers nothing.
   */
  sncAnsweredBy: t.Union([t.Literal('formal_action'), t.Literal('federal_case'), t.Literal('qncr'), t.Null()]),
  /** CWA_13QTRS_EFFLNT_EXCEEDANCES (0 when not in CWA or not reported). */
  effluentExceedances: t.Integer({ minimum: 0 }),
  /** Each last penalty (facility's and each program's) dated in the window, with its amount (0 when unknown): recency weighs each by its size. */
  penaltyEvents: t.Array(t.Object({ date: t.String(), monthsAgo: t.Number(), usd: t.Number() })),
  /** Federal cases' penalties when the cases are in the window (recency weighs the latest case by them). */
  federalUsd: t.Number({ minimum: 0 }),
  /** Quarters of known status (`_`, `V`, `S`) in the facility's history (a program's when it has none); a definite current status counts one when there is no history. */
  knownQuarters: t.Integer({ minimum: 0 }),
  /** Penalties in the 5-year window: amount and count. */
  penaltyUsd: t.Number({ minimum: 0 }),
  penalties: EventFacts,
  formal: EventFacts,
  informal: EventFacts,
  federal: EventFacts,
  /** Formal actions in the window, federal cases included (the larger of the two views, never their sum). */
  formalActions: t.Integer({ minimum: 0 }),
  /** Inspections in the window; null when the source does not report them. */
  inspections: t.Union([EventFacts, t.Null()]),
  facilityActive: t.Union([t.Boolean(), t.Null()]),
  /** Input fields the source lacks, for "not reported" wording. */
  notReported: t.Array(t.String()),
});
export type ScoreFacts = Static<typeof ScoreFacts>;

/** asOfDay of the last as-of seen: a build scores every row at the same as-of. Only valid dates are kept (asOfDay throws otherwise). */
let lastAsOf: string | null = null;
let lastAsOfDay = 0;
function asOfDayOf(asOf: string): number {
  if (asOf !== lastAsOf) {
    lastAsOfDay = asOfDay(asOf);
    lastAsOf = asOf;
  }
  return lastAsOfDay;
}

/** FAC_SNC_FLG `Y`, FAC_PROGRAMS_WITH_SNC above 0, or a status naming significant non-compliance: the facility-level columns' own word. */
export function facilitySaysSignificant(inputs: Pick<ScoreInputs, 'snc_flag' | 'programs_in_snc' | 'compliance_status'>): boolean {
  return inputs.snc_flag === true || safeCount(inputs.programs_in_snc) > 0 || statusOf(inputs.compliance_status) === 'significant';
}

/** In significant non-compliance now, as the score reads it (facility columns, any program, or a 12-quarter history ending in `S`); needs no as-of date. */
export function significantNow(inputs: ScoreInputs): boolean {
  if (facilitySaysSignificant(inputs)) return true;
  const h = typeof inputs.history === 'string' ? inputs.history.toUpperCase().slice(-HISTORY_QUARTERS) : '';
  if (h.length === HISTORY_QUARTERS && h.endsWith('S')) return true;
  const programs = (inputs.programs ?? {}) as Partial<Record<string, { significant?: unknown; status?: unknown } | null>>;
  return Object.values(programs).some((p) => !!p && (p.significant === true || statusOf(p.status) === 'significant'));
}

/** Sanitise the inputs and measure every date against `asOf` (YYYY-MM-DD; throws RangeError if invalid). */
export function factsOf(inputs: ScoreInputs, asOf: string): ScoreFacts {
  const day = asOfDayOf(asOf);
  const raw = typeof inputs.history === 'string' ? inputs.history.toUpperCase() : '';
  const history = raw.slice(-HISTORY_QUARTERS);
  let inHistory = 0, significantInHistory = 0, unknownInHistory = 0;
  for (let i = 0; i < history.length; i++) {
    const c = history.charCodeAt(i);
    if (c === V || c === S) inHistory++;
    if (c === S) significantInHistory++;
    if (c === U) unknownInHistory++;
  }
  const historyUsable = history.length === HISTORY_QUARTERS;
  let currentStatus = statusOf(inputs.compliance_status);
  let counted = Math.min(HISTORY_QUARTERS, safeCount(inputs.qtrs_with_nc));
  let programUnknown = 0;
  // program columns are each program's share of the facility totals: take the larger view, never the sum of both
  let programPenalties = 0, programFormal = 0, programInformal = 0, programsPenalised = 0;
  const penaltyDates = new EventDates(), formalDates = new EventDates(), informalDates = new EventDates(), federalDates = new EventDates();
  const programsInViolation: string[] = [], programsSignificant: string[] = [], programHistories: ScoreFacts['programHistories'] = [];
  let allSignificantResolved = true;
  let programRun = 0, effluentExceedances = 0, programKnown = 0;
  const penaltyEvents: ScoreFacts['penaltyEvents'] = [];
  // one pass over the programs (no filter/map arrays): this runs for every row at ingest
  for (const p of programFacts(inputs.programs, day)) {
    if (p.status === 'violation' && currentStatus === 'none') currentStatus = 'violation';
    if (p.status !== 'none' || p.qtrs > 0) programsInViolation.push(p.name);
    if (p.status === 'significant') {
      programsSignificant.push(p.name);
      if (!p.resolvedPending) allSignificantResolved = false;
    }
    if (p.history !== '') programHistories.push({ program: p.name, history: p.history });
    counted = Math.max(counted, p.qtrsIn12);
    const unknown = countOf(p.history, U);
    programUnknown = Math.max(programUnknown, unknown);
    programKnown = Math.max(programKnown, p.history.length - unknown);
    if (p.status === 'significant') programRun = Math.max(programRun, trailingRun(p.history));
    effluentExceedances = Math.max(effluentExceedances, p.effluentExceedances);
    pushPenalty(penaltyEvents, datedInWindow(day, p.lastPenaltyDate), p.lastPenaltyUsd);
    programPenalties += p.penaltyUsd;
    programFormal += p.formal;
    programInformal += p.informal;
    if (p.penaltyUsd > 0) programsPenalised++;
    penaltyDates.add(p.lastPenaltyDate);
    formalDates.add(p.lastFormalDate);
  }
  if (facilitySaysSignificant(inputs) || programsSignificant.length > 0 || (historyUsable && history.endsWith('S'))) currentStatus = 'significant';
  const quartersInViolation = Math.max(counted, inHistory, currentStatus === 'none' ? 0 : 1);
  const significantQuarters = Math.min(quartersInViolation, Math.max(significantInHistory, currentStatus === 'significant' ? 1 : 0));
  const unknownQuarters = history === '' ? Math.max(unknownInHistory, programUnknown) : unknownInHistory;
  // resolved pending addresses an SNC only when every program in SNC says so and the facility counts no other
  const sncResolvedPending =
    currentStatus === 'significant' && programsSignificant.length > 0 && allSignificantResolved && safeCount(inputs.programs_in_snc) <= programsSignificant.length;

  penaltyDates.add(inputs.date_last_penalty);
  pushPenalty(penaltyEvents, datedInWindow(day, inputs.date_last_penalty), safeAmount(inputs.last_penalty_usd));
  formalDates.add(inputs.date_last_formal_action);
  informalDates.add(inputs.date_last_informal_action);
  federalDates.add(inputs.date_last_federal_case);

  const federal = federalDates.facts(day, Math.max(safeCount(inputs.federal_cases), distinctIds(inputs.federal_case_ids)), false);
  // FAC_LAST_PENALTY_AMT is the latest penalty ever: a 5-year amount only when dated in the window (or undated)
  const lastUsd = inWindowOrUndated(day, inputs.date_last_penalty) ? safeAmount(inputs.last_penalty_usd) : 0;
  const federalUsd = federal.count > 0 ? safeAmount(inputs.federal_penalties_usd) : 0;
  const penaltyUsd = Math.max(safeAmount(inputs.total_penalties_usd), lastUsd, programPenalties, federalUsd);
  const penaltyCount = Math.max(safeCount(inputs.penalty_count), programsPenalised, penaltyUsd > 0 ? 1 : 0);
  const penalties = penaltyDates.facts(day, penaltyCount);
  const formal = formalDates.facts(day, Math.max(safeCount(inputs.formal_action_count), programFormal));
  const informal = informalDates.facts(day, Math.max(safeCount(inputs.informal_action_count), programInformal));
  const formalActions = Math.max(formal.count, federal.count);
  let sncRunQuarters = 0;
  let sncAnsweredBy: ScoreFacts['sncAnsweredBy'] = null;
  if (currentStatus === 'significant') {
    sncRunQuarters = Math.max(1, historyUsable ? trailingRun(history) : 0, programRun);
    // the run's first quarter began 3 months a quarter before the as-of date: a response dated since then answers it
    const since = 3 * sncRunQuarters;
    if (answers(formal.latest, since)) sncAnsweredBy = 'formal_action';
    else if (answers(federal.latest, since)) sncAnsweredBy = 'federal_case';
    else if (sncResolvedPending) sncAnsweredBy = 'qncr';
  }
  // without any quarterly history, a definite current status (a violation, or "No Violation Identified") is one known quarter
  const definiteNow = currentStatus !== 'none' || quartersInViolation > 0 || NO_VIOLATION.test(typeof inputs.compliance_status === 'string' ? inputs.compliance_status : '');
  const knownQuarters = history !== '' ? history.length - unknownInHistory : programKnown > 0 ? programKnown : definiteNow ? 1 : 0;
  let inspections: EventFacts | null = null;
  if (typeof inputs.inspection_count === 'number') {
    const d = new EventDates();
    d.add(inputs.date_last_inspection);
    inspections = d.facts(day, safeCount(inputs.inspection_count));
  }
  return {
    asOf,
    history,
    historyUsable,
    quartersInViolation,
    significantQuarters,
    unknownQuarters,
    quartersFromCountOnly: counted > inHistory,
    currentStatus,
    programsInViolation,
    programsSignificant,
    programHistories,
    sncResolvedPending,
    sncRunQuarters,
    sncAnsweredBy,
    effluentExceedances,
    penaltyEvents,
    federalUsd,
    knownQuarters,
    penaltyUsd,
    penalties,
    formal,
    informal,
    federal,
    formalActions,
    inspections,
    facilityActive: typeof inputs.facility_active === 'boolean' ? inputs.facility_active : null,
    notReported: Array.isArray(inputs.not_reported) ? inputs.not_reported.filter((x) => typeof x === 'string') : [],
  };
}

const V = 86, S = 83, U = 85;
const NO_VIOLATION = /^\s*no violation/i;

/** Quarters of the current significant run: the `S` at the end of a history (oldest first). */
function trailingRun(history: string): number {
  let n = 0;
  for (let i = history.length - 1; i >= 0 && history.charCodeAt(i) === S; i--) n++;
  return n;
}

/** A response dated at most `sinceMonths` before the as-of date (or after it) answers the SNC. */
function answers(e: DatedEvent | null, sinceMonths: number): boolean {
  return e !== null && e.monthsAgo <= sinceMonths;
}

function pushPenalty(out: ScoreFacts['penaltyEvents'], e: DatedEvent | null, usd: number): void {
  if (e !== null) out.push({ date: e.date, monthsAgo: e.monthsAgo, usd });
}

/** How many times the character `code` occurs in `s`. */
function countOf(s: string, code: number): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) === code) n++;
  return n;
}

/** Distinct non-empty case ids of FEC_CASE_IDS (0 when not a list); most facilities have none, decided without a Set. */
function distinctIds(ids: unknown): number {
  if (!Array.isArray(ids) || ids.length === 0) return 0;
  return new Set(ids.filter((x) => typeof x === 'string' && x !== '')).size;
}
