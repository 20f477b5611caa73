import { t, type Static } from '../shared/typebox';
import { asOfDay, monthsBefore, parseDataDate, type DataDate } from './dates';
import { PROGRAMS, type Program, type ProgramInputs, type ScoreInputs } from './model';
import { HISTORY_QUARTERS } from './rules';

/** An enforcement event the inputs show: its ISO date when known, and its age at the as-of date (null when undated). */
export const EventAge = t.Object({
  date: t.Union([t.String(), t.Null()], { description: 'null: the event exists (count > 0) but has no usable date' }),
  monthsAgo: t.Union([t.Number({ minimum: 0 }), t.Null()]),
});
export type EventAge = Static<typeof EventAge>;

/** Score inputs after sanitising: every number finite or clamped, every date an age, programs folded in. */
export const ScoreFacts = t.Object({
  asOf: t.String(),
  /** Last 12 chars of the history, upper-cased; usable for timing only when all 12 quarters are there. */
  history: t.String(),
  historyUsable: t.Boolean(),
  quartersInViolation: t.Integer({ minimum: 0, maximum: HISTORY_QUARTERS }),
  significantQuarters: t.Integer({ minimum: 0, maximum: HISTORY_QUARTERS }),
  /** True when a quarter count (facility or program) reports more quarters than the history string shows. */
  quartersFromCountOnly: t.Boolean(),
  currentStatus: t.Union([t.Literal('none'), t.Literal('violation'), t.Literal('significant')]),
  /** Programs (of caa, cwa, rcra, sdwa) with a violation now or a quarter in violation, and those in SNC now. */
  programsInViolation: t.Array(t.String()),
  programsSignificant: t.Array(t.String()),
  penaltyUsd: t.Number({ minimum: 0 }),
  penaltyCount: t.Integer({ minimum: 0 }),
  formalActions: t.Integer({ minimum: 0 }),
  informalActions: t.Integer({ minimum: 0 }),
  lastPenalty: t.Union([EventAge, t.Null()]),
  lastFormalAction: t.Union([EventAge, t.Null()]),
  lastInformalAction: t.Union([EventAge, t.Null()]),
  /** Input fields the source lacks, for "not reported" wording. */
  notReported: t.Array(t.String()),
});
export type ScoreFacts = Static<typeof ScoreFacts>;

/** A count from possibly odd data: NaN, negatives and non-numbers are 0, fractions round down. */
export function safeCount(x: unknown): number {
  if (typeof x !== 'number' || !(x > 0)) return 0;
  return Number.isFinite(x) ? Math.floor(x) : Number.MAX_SAFE_INTEGER;
}

/** A dollar amount: NaN, negatives and non-numbers are 0; Infinity stays (it clamps to the worst tier). */
export function safeAmount(x: unknown): number {
  return typeof x === 'number' && x > 0 ? x : 0;
}

/**
 * What FAC_COMPLIANCE_STATUS says about the current quarter. ECHO publishes 'No Violation Identified',
 * 'Violation Identified' and 'Significant Violation' at facility level; program-level texts such as
 * 'Failure to Report DMR' or 'Effluent exceedance' also mean a violation. Anything else (blank,
 * 'Unknown', 'Not Applicable') says nothing.
 */
export function statusOf(status: unknown): CurrentStatus {
  if (typeof status !== 'string') return 'none';
  // a national file holds a handful of distinct texts: classify each once (bounded, so junk cannot grow it)
  const known = STATUS_MEMO.get(status);
  if (known) return known;
  const result = classifyStatus(status);
  if (STATUS_MEMO.size < 1000) STATUS_MEMO.set(status, result);
  return result;
}

type CurrentStatus = 'none' | 'violation' | 'significant';
const STATUS_MEMO = new Map<string, CurrentStatus>();

function classifyStatus(status: string): CurrentStatus {
  const s = status.trim().toLowerCase();
  if (s === '' || /^(no |not |none|unknown|undetermined)/.test(s)) return 'none';
  if (/significant|\bsnc\b|\bhpv\b/.test(s) && !/non-?significant|not significant/.test(s)) return 'significant';
  if (/violation|noncompliance|non-compliance|failure|exceed/.test(s)) return 'violation';
  return 'none';
}

/**
 * parseDataDate, once per distinct text: an index build scores millions of rows whose dates are a few
 * thousand distinct texts. Bounded, so junk dates cannot grow it; the DataDate objects are never mutated.
 */
function memoDate(text: string): DataDate | null {
  let parsed = DATE_MEMO.get(text);
  if (parsed === undefined) {
    parsed = parseDataDate(text);
    if (DATE_MEMO.size < 100_000) DATE_MEMO.set(text, parsed);
  }
  return parsed;
}
const DATE_MEMO = new Map<string, DataDate | null>();

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

/** Tracks the latest dated event among several date texts, and whether any undated text was seen. */
class LatestDate {
  best: DataDate | null = null;
  undatedText = false;
  add(d: unknown): void {
    if (typeof d !== 'string') return;
    const parsed = memoDate(d);
    if (parsed) {
      if (this.best === null || parsed.day > this.best.day) this.best = parsed;
    } else if (d.trim() !== '') this.undatedText = true; // a non-empty but unparseable date still says an event happened
  }
  age(asOf: number, exists: boolean): EventAge | null {
    if (this.best) return { date: this.best.iso, monthsAgo: monthsBefore(asOf, this.best.day) };
    return exists || this.undatedText ? { date: null, monthsAgo: null } : null;
  }
}

type ProgramFacts = { name: Program; status: CurrentStatus; qtrs: number; formal: number; informal: number; penaltyUsd: number; lastPenalty: unknown; lastPenaltyUsd: number; lastFormal: unknown };

/** The programs the facility is in, sanitised; a non-object entry is a program it is not in. */
function programFacts(programs: unknown): ProgramFacts[] {
  const out: ProgramFacts[] = [];
  if (typeof programs !== 'object' || programs === null) return out;
  for (const name of PROGRAMS) {
    const p = (programs as Record<string, unknown>)[name] as Partial<ProgramInputs> | null | undefined;
    if (typeof p !== 'object' || p === null) continue;
    let status = statusOf(p.status);
    if (p.significant === true) status = 'significant';
    const qtrs = Math.min(HISTORY_QUARTERS, safeCount(p.qtrs_with_nc));
    out.push({
      name, status, qtrs,
      formal: safeCount(p.formal_actions),
      informal: safeCount(p.informal_actions),
      penaltyUsd: Math.max(safeAmount(p.penalties_usd), safeAmount(p.last_penalty_usd)),
      lastPenalty: p.last_penalty_date,
      lastPenaltyUsd: safeAmount(p.last_penalty_usd),
      lastFormal: p.last_formal_action_date,
    });
  }
  return out;
}

/** Sanitise the inputs and measure every date against `asOf` (YYYY-MM-DD; throws RangeError if invalid). */
export function factsOf(inputs: ScoreInputs, asOf: string): ScoreFacts {
  const asOfDayNumber = asOfDayOf(asOf);
  const raw = typeof inputs.history === 'string' ? inputs.history.toUpperCase() : '';
  const history = raw.slice(-HISTORY_QUARTERS);
  let inHistory = 0;
  let significantInHistory = 0;
  for (const c of history) {
    if (c === 'V' || c === 'S') inHistory++;
    if (c === 'S') significantInHistory++;
  }
  const historyUsable = history.length === HISTORY_QUARTERS;
  const programs = programFacts(inputs.programs);
  let currentStatus = statusOf(inputs.compliance_status);
  for (const p of programs) if (p.status === 'violation' && currentStatus === 'none') currentStatus = 'violation';
  const anyProgramSignificant = programs.some((p) => p.status === 'significant');
  if (inputs.significant_violation === true || anyProgramSignificant || (historyUsable && history.endsWith('S'))) currentStatus = 'significant';
  let counted = Math.min(HISTORY_QUARTERS, safeCount(inputs.qtrs_with_nc));
  for (const p of programs) counted = Math.max(counted, p.qtrs);
  const quartersInViolation = Math.max(counted, inHistory, currentStatus === 'none' ? 0 : 1);
  const significantQuarters = Math.min(quartersInViolation, Math.max(significantInHistory, currentStatus === 'significant' ? 1 : 0));

  // program columns are each program's share of the facility totals: take the larger view, never the sum of both
  let programPenalties = 0, programFormal = 0, programInformal = 0, programsPenalised = 0;
  for (const p of programs) {
    programPenalties += p.penaltyUsd;
    programFormal += p.formal;
    programInformal += p.informal;
    if (p.penaltyUsd > 0) programsPenalised++;
  }
  const penaltyUsd = Math.max(safeAmount(inputs.total_penalties_usd), safeAmount(inputs.last_penalty_usd), programPenalties, safeAmount(inputs.federal_penalties_usd));
  const penaltyDates = new LatestDate();
  const formalDates = new LatestDate();
  const informalDates = new LatestDate();
  penaltyDates.add(inputs.date_last_penalty);
  formalDates.add(inputs.date_last_formal_action);
  formalDates.add(inputs.date_last_federal_case);
  informalDates.add(inputs.date_last_informal_action);
  for (const p of programs) {
    penaltyDates.add(p.lastPenalty);
    formalDates.add(p.lastFormal);
  }
  const lastPenalty = penaltyDates.age(asOfDayNumber, penaltyUsd > 0 || safeCount(inputs.penalty_count) > 0);
  const formalCount = Math.max(safeCount(inputs.formal_action_count), programFormal, safeCount(inputs.federal_cases));
  const lastFormalAction = formalDates.age(asOfDayNumber, formalCount > 0);
  const informalCount = Math.max(safeCount(inputs.informal_action_count), programInformal);
  const lastInformalAction = informalDates.age(asOfDayNumber, informalCount > 0);
  return {
    asOf,
    history,
    historyUsable,
    quartersInViolation,
    significantQuarters,
    quartersFromCountOnly: counted > inHistory,
    currentStatus,
    programsInViolation: programs.filter((p) => p.status !== 'none' || p.qtrs > 0).map((p) => p.name),
    programsSignificant: programs.filter((p) => p.status === 'significant').map((p) => p.name),
    penaltyUsd,
    // a penalty amount or date with a zero count (facility-search rows have no count) is one penalty
    penaltyCount: Math.max(safeCount(inputs.penalty_count), programsPenalised, lastPenalty ? 1 : 0),
    formalActions: Math.max(formalCount, lastFormalAction ? 1 : 0),
    informalActions: Math.max(informalCount, lastInformalAction ? 1 : 0),
    lastPenalty,
    lastFormalAction,
    lastInformalAction,
    notReported: Array.isArray(inputs.not_reported) ? inputs.not_reported.filter((x) => typeof x === 'string') : [],
  };
}
