import type { ScoreFacts } from './facts';
import type { DatedEvent } from './events';
import { dataDate, listOf, months, PROGRAM_NAMES, usd } from './format';
import { MAX_POINTS, type Program } from './model';
import { HISTORY_QUARTERS, PENALTY_RECENCY_FLOOR_USD, PENALTY_RECENCY_PER_TENFOLD, pointsLeft, RECENCY_EVENTS, type RecencyEventKind } from './rules';
import { isUnansweredSnc } from './snc';

/** Where an event's age comes from; the explanation line names it. */
export type AgeSource = 'dated' | 'status' | 'history' | 'program-history' | 'estimate';

/** One event that can take points off recency: what it was, when (ISO or null) and how long ago. */
export type RecencyEvent = { kind: RecencyEventKind; date: string | null; monthsAgo: number; source: AgeSource; program?: Program; usd?: number };

// The events are pushed into one array (no array per kind, no spreads): recency is read twice a row
// at ingest (points and explanation), and the per-kind arrays were most of its cost.

/** A dated event in the window; an undated one costs no recency (rules.ts UNDATED_EVENT_RECENCY_POINTS), so it is not an event here. */
function pushDated(out: RecencyEvent[], kind: RecencyEventKind, e: DatedEvent | null, usd?: number): void {
  if (e) out.push({ kind, date: e.date, monthsAgo: e.monthsAgo, source: 'dated', usd });
}

/** The latest V and S quarter of a history (oldest first: the last char is the latest quarter, each step back 3 months older). */
function pushHistoryEvents(out: RecencyEvent[], history: string, source: AgeSource, program?: Program): void {
  const last = history.length - 1;
  const lastV = Math.max(history.lastIndexOf('V'), history.lastIndexOf('S'));
  const lastS = history.lastIndexOf('S');
  if (lastV >= 0) out.push({ kind: 'violation', date: null, monthsAgo: 3 * (last - lastV), source, program });
  if (lastS >= 0) out.push({ kind: 'significant_violation', date: null, monthsAgo: 3 * (last - lastS), source, program });
}

/** Violations as events: the current status, the latest V and S quarter of a full history (facility or program), else an estimate from the count. */
function pushViolationEvents(out: RecencyEvent[], f: ScoreFacts): void {
  if (f.currentStatus !== 'none') {
    const kind = f.currentStatus === 'violation' ? 'violation' : isUnansweredSnc(f) ? 'current_significant_violation' : 'answered_significant_violation';
    out.push({ kind, date: f.asOf, monthsAgo: 0, source: 'status' });
  }
  if (f.historyUsable) pushHistoryEvents(out, f.history, 'history');
  // a program's own history (CWA's 13 quarters read whole) dates its violations too
  for (const p of f.programHistories) if (p.history.length >= HISTORY_QUARTERS) pushHistoryEvents(out, p.history, 'program-history', p.program as Program);
  if (!f.historyUsable && f.quartersInViolation > 0) {
    // without the quarterly history, n violation quarters out of 12 put the latest one at most
    // 12 - n quarters back: take that bound, the only age the data proves (more quarters, more recent)
    const quartersBack = HISTORY_QUARTERS - f.quartersInViolation;
    out.push({ kind: 'violation', date: null, monthsAgo: 3 * quartersBack, source: 'estimate' });
  }
}

export function recencyEvents(f: ScoreFacts): RecencyEvent[] {
  const out: RecencyEvent[] = [];
  pushDated(out, 'formal_action', f.formal.latest);
  pushDated(out, 'federal_case', f.federal.latest, f.federalUsd);
  // each dated last penalty (facility's, each program's) weighs by its own amount
  for (const p of f.penaltyEvents) out.push({ kind: 'penalty', date: p.date, monthsAgo: p.monthsAgo, source: 'dated', usd: p.usd });
  pushDated(out, 'informal_action', f.informal.latest);
  pushViolationEvents(out, f);
  return out;
}

/**
 * An enforcement event's weight by its penalty: the kind's points up to PENALTY_RECENCY_FLOOR_USD,
 * then PENALTY_RECENCY_PER_TENFOLD more per tenfold, at most all of recency.
 */
export function penaltyRecencyWeight(base: number, usd: number | undefined): number {
  if (!(usd !== undefined && usd > PENALTY_RECENCY_FLOOR_USD)) return base;
  return Math.min(MAX_POINTS.recency, base + PENALTY_RECENCY_PER_TENFOLD * Math.log10(usd / PENALTY_RECENCY_FLOOR_USD));
}

/** Points one event takes off recency: its weight at age 0 (sized by its penalty), fading linearly to 0. */
export function recencyDeduction(e: RecencyEvent): number {
  const rule = RECENCY_EVENTS[e.kind];
  const age = Number.isFinite(e.monthsAgo) ? Math.max(0, e.monthsAgo) : rule.fadeMonths;
  return penaltyRecencyWeight(rule.points, e.usd) * Math.max(0, 1 - age / rule.fadeMonths);
}

/** The event that costs the most recency now (first in list order on ties), or null. */
export function heaviestEvent(f: ScoreFacts): RecencyEvent | null {
  let best: RecencyEvent | null = null;
  let bestLost = 0;
  for (const e of recencyEvents(f)) {
    const lost = recencyDeduction(e);
    if (lost > bestLost) {
      best = e;
      bestLost = lost;
    }
  }
  return best;
}

/**
 * 0-25: 25 minus the heaviest deduction among the facility's dated events. An SNC now with no
 * enforcement response takes all 25; answered, or a significant quarter, 20; a violation 15, an
 * informal action 6 (these fade over 3 years). A formal action, penalty or federal case takes 10 at
 * the as-of date, more with the size of its penalty (up to 25 from $5M), fading over the 5-year
 * window. Undated events and events older than the window take nothing here.
 */
export function recencyPoints(f: ScoreFacts): number {
  const e = heaviestEvent(f);
  const lost = e ? recencyDeduction(e) : 0;
  return pointsLeft(MAX_POINTS.recency, lost);
}

const LABEL: Record<RecencyEventKind, string> = {
  formal_action: 'Formal enforcement action',
  penalty: 'Penalty',
  federal_case: 'Federal enforcement case',
  answered_significant_violation: 'In significant violation',
  significant_violation: 'Significant violation',
  current_significant_violation: 'In significant violation',
  violation: 'Violation',
  informal_action: 'Informal enforcement action',
};

/** The sentence for the event that cost the most recency: what, when, and where its age comes from. */
function describe(e: RecencyEvent, f: ScoreFacts): string {
  const asOf = dataDate(f.asOf);
  switch (e.source) {
    case 'dated': {
      // ISO dates compare as strings; a future date is scored as at the as-of date, so say so
      const what = e.usd !== undefined && e.usd > 0 ? `${LABEL[e.kind]} (${usd(e.usd)})` : LABEL[e.kind];
      if (e.date! > f.asOf) return `${what} on ${e.date}, after ${asOf}; counted as on it`;
      if (e.date === f.asOf) return `${what} on ${asOf}`;
      return e.monthsAgo < 0.5 ? `${what} on ${e.date}, less than a month before ${asOf}` : `${what} on ${e.date}, ${months(e.monthsAgo)} before ${asOf}`;
    }
    case 'status':
      return e.kind === 'current_significant_violation'
        ? `In significant violation at ${asOf}, per the current compliance status, with no enforcement action dated since it began`
        : e.kind === 'answered_significant_violation'
          ? `In significant violation at ${asOf}, per the current compliance status, and being addressed by enforcement`
          : `In violation at ${asOf}, per the current compliance status`;
    case 'history':
    case 'program-history': {
      const whose = e.source === 'history' ? 'the quarterly history' : `the quarterly history under ${PROGRAM_NAMES[e.program!]}`;
      const when = e.monthsAgo === 0 ? 'in the latest quarter' : `in the quarter ${months(e.monthsAgo)} before the latest`;
      return `${LABEL[e.kind]} ${when}, per ${whose} (data date ${f.asOf})`;
    }
    case 'estimate':
      return `Violation no more than ${months(e.monthsAgo)} before ${asOf}: ${f.quartersInViolation} of the last ${HISTORY_QUARTERS} quarters were in violation, and the file has no quarter-by-quarter history`;
  }
}

/** One line naming the event that cost the most recency, when it was and where its age came from. */
export function explainRecency(f: ScoreFacts): string {
  const e = heaviestEvent(f);
  if (!e) return `No dated violation, enforcement action or penalty in the last 5 years${undatedNote(f)}`;
  return `${describe(e, f)}${undatedNote(f)}`;
}

/** Names events in the window that carry no date in it: recency cannot place them, so they do not count here. */
function undatedNote(f: ScoreFacts): string {
  // nearly every facility has none: decided before building the list
  if (!f.formal.undated && !f.federal.undated && !f.penalties.undated && !f.informal.undated) return '';
  const kinds = [
    [f.formal, 'formal action', 'formal actions'],
    [f.federal, 'federal case', 'federal cases'],
    [f.penalties, 'penalty', 'penalties'],
    [f.informal, 'informal action', 'informal actions'],
  ] as const;
  const undated = kinds.filter(([e]) => e.undated);
  if (undated.length === 0) return '';
  const older = undated.some(([e]) => e.olderDate !== null);
  const names = listOf(undated.map(([e, one, many]) => (e.count === 1 ? one : many)));
  const single = undated.length === 1 && undated[0]![0].count === 1;
  return `; the ${names} ${single ? 'has' : 'have'} no date ${older ? 'in the last 5 years' : 'in the file'}, so ${single ? 'it does' : 'they do'} not count here`;
}
