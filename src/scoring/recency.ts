import type { EventAge, ScoreFacts } from './facts';
import { months } from './format';
import { MAX_POINTS } from './model';
import { HISTORY_QUARTERS, pointsLeft, RECENCY_EVENTS, type RecencyEventKind } from './rules';

/** Where an event's age comes from; the explanation line names it. */
export type AgeSource = 'dated' | 'status' | 'history' | 'estimate';

/** One event that can take points off recency: what it was, when (ISO or null) and how long ago. */
export type RecencyEvent = { kind: RecencyEventKind; date: string | null; monthsAgo: number; source: AgeSource };

/** A dated event; an undated one costs no recency (rules.ts UNDATED_EVENT_RECENCY_POINTS), so it is not an event here. */
function dated(kind: RecencyEventKind, e: EventAge | null): RecencyEvent[] {
  if (!e || e.date === null || e.monthsAgo === null) return [];
  return [{ kind, date: e.date, monthsAgo: e.monthsAgo, source: 'dated' }];
}

/** Violations as events: the latest V and S quarter of a full history, else an estimate from the count. */
function violationEvents(f: ScoreFacts): RecencyEvent[] {
  const out: RecencyEvent[] = [];
  if (f.currentStatus !== 'none') {
    const kind = f.currentStatus === 'significant' ? 'current_significant_violation' : 'violation';
    out.push({ kind, date: f.asOf, monthsAgo: 0, source: 'status' });
  }
  if (f.historyUsable) {
    // oldest first: the last char is the current quarter, each step back is 3 months older
    const lastV = Math.max(f.history.lastIndexOf('V'), f.history.lastIndexOf('S'));
    const lastS = f.history.lastIndexOf('S');
    if (lastV >= 0) out.push({ kind: 'violation', date: null, monthsAgo: 3 * (HISTORY_QUARTERS - 1 - lastV), source: 'history' });
    if (lastS >= 0) out.push({ kind: 'significant_violation', date: null, monthsAgo: 3 * (HISTORY_QUARTERS - 1 - lastS), source: 'history' });
  } else if (f.quartersInViolation > 0) {
    // without the quarterly history, n violation quarters out of 12 put the latest one at most
    // 12 - n quarters back: take that bound, the only age the data proves (more quarters, more recent)
    const quartersBack = HISTORY_QUARTERS - f.quartersInViolation;
    out.push({ kind: 'violation', date: null, monthsAgo: 3 * quartersBack, source: 'estimate' });
  }
  return out;
}

export function recencyEvents(f: ScoreFacts): RecencyEvent[] {
  return [
    ...dated('formal_action', f.lastFormalAction),
    ...dated('penalty', f.lastPenalty),
    ...dated('informal_action', f.lastInformalAction),
    ...violationEvents(f),
  ];
}

/** Points one event takes off recency: its kind's full weight at age 0, fading linearly to 0. */
export function recencyDeduction(e: RecencyEvent): number {
  const rule = RECENCY_EVENTS[e.kind];
  const age = Number.isFinite(e.monthsAgo) ? Math.max(0, e.monthsAgo) : rule.fadeMonths;
  return rule.points * Math.max(0, 1 - age / rule.fadeMonths);
}

/** The event that costs the most recency now (first in list order on ties), or null. */
export function heaviestEvent(f: ScoreFacts): RecencyEvent | null {
  let best: RecencyEvent | null = null;
  let bestLost = 0;
  for (const e of recencyEvents(f)) {
    const lost = recencyDeduction(e);
    if (lost > bestLost) [best, bestLost] = [e, lost];
  }
  return best;
}

/**
 * 0-25: 25 minus the heaviest deduction among the facility's dated events. A formal action or
 * penalty takes all 25 at the as-of date and gives back 5 a year over the 5-year window; so does
 * SNC at the as-of date (fading over 3 years); past violations and informal actions weigh less
 * (20 significant, 15 otherwise) and fade over 3 years. Undated events take nothing here.
 */
export function recencyPoints(f: ScoreFacts): number {
  const e = heaviestEvent(f);
  const lost = e ? recencyDeduction(e) : 0;
  return pointsLeft(MAX_POINTS.recency, lost);
}

const LABEL: Record<RecencyEventKind, string> = {
  formal_action: 'formal enforcement action',
  penalty: 'penalty',
  significant_violation: 'significant violation',
  current_significant_violation: 'significant non-compliance',
  violation: 'violation',
  informal_action: 'informal enforcement action',
};

const HOW: Record<AgeSource, (e: RecencyEvent, asOf: string) => string> = {
  // ISO dates compare as strings; a future date is scored as at the as-of date, so say so
  dated: (e, asOf) => (e.date !== null && e.date > asOf ? `on ${e.date}, after the as-of date` : `on ${e.date}`),
  status: () => 'current compliance status',
  history: () => 'quarterly history',
  estimate: () => 'the oldest the quarter count allows; no quarterly history',
};

/** One line naming the event that cost the most recency, when it was and where its age came from. */
export function explainRecency(f: ScoreFacts): string {
  const e = heaviestEvent(f);
  if (!e) return `No dated enforcement action, penalty or violation in the scoring windows${undatedNote(f)}`;
  const label = LABEL[e.kind].charAt(0).toUpperCase() + LABEL[e.kind].slice(1);
  const when = e.monthsAgo < 0.5 ? `at the as-of date ${f.asOf}` : `${months(e.monthsAgo)} before ${f.asOf}`;
  return `${label} ${when} (${HOW[e.source](e, f.asOf)})${undatedNote(f)}`;
}

/** Names events that exist but carry no date, which recency cannot place and so does not count. */
function undatedNote(f: ScoreFacts): string {
  const undated = [
    f.lastFormalAction?.date === null ? 'formal action' : null,
    f.lastPenalty?.date === null ? 'penalty' : null,
    f.lastInformalAction?.date === null ? 'informal action' : null,
  ].filter((x) => x !== null);
  if (undated.length === 0) return '';
  const what = undated.length === 1 ? `the ${undated[0]}` : `the ${undated.slice(0, -1).join(', ')} and ${undated.at(-1)}`;
  return `; no date for ${what}, so not counted for recency`;
}
