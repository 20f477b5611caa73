import { t, type Static } from 'elysia';
import { asOfDay, monthsBefore, parseDataDate } from './dates';
import type { ScoreInputs } from './model';
import { HISTORY_QUARTERS, UNKNOWN_DATE_MONTHS } from './rules';

/** An enforcement event the inputs show: its ISO date when known, and its age at the as-of date. */
export const EventAge = t.Object({
  date: t.Union([t.String(), t.Null()], { description: 'null: the event exists (count > 0) but has no usable date' }),
  monthsAgo: t.Number({ minimum: 0 }),
});
export type EventAge = Static<typeof EventAge>;

/** Score inputs after sanitising: every number finite or clamped, every date an age. */
export const ScoreFacts = t.Object({
  asOf: t.String(),
  /** Last 12 chars of the history, upper-cased; usable for timing only when all 12 quarters are there. */
  history: t.String(),
  historyUsable: t.Boolean(),
  quartersInViolation: t.Integer({ minimum: 0, maximum: HISTORY_QUARTERS }),
  significantQuarters: t.Integer({ minimum: 0, maximum: HISTORY_QUARTERS }),
  /** True when FAC_QTRS_WITH_NC reports more quarters than the history string shows. */
  quartersFromCountOnly: t.Boolean(),
  currentStatus: t.Union([t.Literal('none'), t.Literal('violation'), t.Literal('significant')]),
  penaltyUsd: t.Number({ minimum: 0 }),
  penaltyCount: t.Integer({ minimum: 0 }),
  formalActions: t.Integer({ minimum: 0 }),
  informalActions: t.Integer({ minimum: 0 }),
  lastPenalty: t.Union([EventAge, t.Null()]),
  lastFormalAction: t.Union([EventAge, t.Null()]),
  lastInformalAction: t.Union([EventAge, t.Null()]),
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

function eventAge(asOf: number, date: unknown, exists: boolean): EventAge | null {
  const parsed = parseDataDate(typeof date === 'string' ? date : null);
  if (parsed) return { date: parsed.iso, monthsAgo: monthsBefore(asOf, parsed.day) };
  // a non-empty but unparseable date still says an event happened
  const hasText = typeof date === 'string' && date.trim() !== '';
  return exists || hasText ? { date: null, monthsAgo: UNKNOWN_DATE_MONTHS } : null;
}

/** Sanitise the inputs and measure every date against `asOf` (YYYY-MM-DD; throws RangeError if invalid). */
export function factsOf(inputs: ScoreInputs, asOf: string): ScoreFacts {
  const asOfDayNumber = asOfDay(asOf);
  const raw = typeof inputs.history === 'string' ? inputs.history.toUpperCase() : '';
  const history = raw.slice(-HISTORY_QUARTERS);
  let inHistory = 0;
  let significantInHistory = 0;
  for (const c of history) {
    if (c === 'V' || c === 'S') inHistory++;
    if (c === 'S') significantInHistory++;
  }
  const historyUsable = history.length === HISTORY_QUARTERS;
  let currentStatus = statusOf(inputs.compliance_status);
  if (inputs.significant_violation === true || (historyUsable && history.endsWith('S'))) currentStatus = 'significant';
  const counted = Math.min(HISTORY_QUARTERS, safeCount(inputs.qtrs_with_nc));
  const quartersInViolation = Math.max(counted, inHistory, currentStatus === 'none' ? 0 : 1);
  const significantQuarters = Math.min(quartersInViolation, Math.max(significantInHistory, currentStatus === 'significant' ? 1 : 0));

  const penaltyUsd = Math.max(safeAmount(inputs.total_penalties_usd), safeAmount(inputs.last_penalty_usd));
  const lastPenalty = eventAge(asOfDayNumber, inputs.date_last_penalty, penaltyUsd > 0 || safeCount(inputs.penalty_count) > 0);
  const lastFormalAction = eventAge(asOfDayNumber, inputs.date_last_formal_action, safeCount(inputs.formal_action_count) > 0);
  const lastInformalAction = eventAge(asOfDayNumber, inputs.date_last_informal_action, safeCount(inputs.informal_action_count) > 0);
  return {
    asOf,
    history,
    historyUsable,
    quartersInViolation,
    significantQuarters,
    quartersFromCountOnly: counted > inHistory,
    currentStatus,
    penaltyUsd,
    // a penalty amount or date with a zero count (facility-search rows have no count) is one penalty
    penaltyCount: Math.max(safeCount(inputs.penalty_count), lastPenalty ? 1 : 0),
    formalActions: Math.max(safeCount(inputs.formal_action_count), lastFormalAction ? 1 : 0),
    informalActions: Math.max(safeCount(inputs.informal_action_count), lastInformalAction ? 1 : 0),
    lastPenalty,
    lastFormalAction,
    lastInformalAction,
  };
}
