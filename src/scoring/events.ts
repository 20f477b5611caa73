import { t, type Static } from '../shared/typebox';
import { monthsBefore, parseDataDate, type DataDate } from './dates';
import { ENFORCEMENT_WINDOW_MONTHS } from './rules';

/** A dated event inside the 5-year window: its ISO date and its age at the as-of date (0 for a date after it). */
export const DatedEvent = t.Object({ date: t.String(), monthsAgo: t.Number({ minimum: 0 }) });
export type DatedEvent = Static<typeof DatedEvent>;

/**
 * One kind of enforcement event (penalty, formal action, informal action, federal case) as the 5-year
 * window sees it. ECHO's counts cover the last 5 years, its `DATE_LAST_*` columns the most recent event
 * ever: a date before the window is not a 5-year event and counts for nothing here.
 */
export const EventFacts = t.Object({
  /** Events in the window: the 5-year count, or 1 when only a date in the window (or an unreadable date text) shows one. */
  count: t.Integer({ minimum: 0 }),
  /** The most recent event when its date falls in the window (or after the as-of date), else null. */
  latest: t.Union([DatedEvent, t.Null()]),
  /** Some events in the window have no date in it: the count shows them but no date does (no date is invented). */
  undated: t.Boolean(),
  /** The most recent date on record when it is older than the window (not a 5-year event), else null. */
  olderDate: t.Union([t.String(), t.Null()]),
});
export type EventFacts = Static<typeof EventFacts>;

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

/** Collects the date texts of one kind of event (facility, program and federal columns) and keeps the latest. */
export class EventDates {
  private best: DataDate | null = null;
  private undatedText = false;

  add(d: unknown): void {
    if (typeof d !== 'string') return;
    const parsed = memoDate(d);
    if (parsed) {
      if (this.best === null || parsed.day > this.best.day) this.best = parsed;
    } else if (d.trim() !== '') this.undatedText = true; // a non-empty but unreadable date still says an event happened
  }

  /**
   * The events of this kind at `asOf` (a day number), given their count (0 when none or not reported).
   * `windowed`: the count is EPA's 5-year count, so it stands even when the latest date on record is
   * older (those events then have no date in the window); otherwise (federal cases, whose count is not
   * documented as a 5-year one) a latest date before the window means none of them is in it.
   */
  facts(asOf: number, count: number, windowed = true): EventFacts {
    const best = this.best;
    if (best !== null) {
      const monthsAgo = monthsBefore(asOf, best.day);
      if (monthsAgo <= ENFORCEMENT_WINDOW_MONTHS) return { count: Math.max(count, 1), latest: { date: best.iso, monthsAgo }, undated: false, olderDate: null };
      const n = windowed ? count : 0;
      return { count: n, latest: null, undated: n > 0, olderDate: best.iso };
    }
    const n = Math.max(count, this.undatedText ? 1 : 0);
    return { count: n, latest: null, undated: n > 0, olderDate: null };
  }
}

/** True when `date` (ISO, or null) is missing or falls in the window of `asOf` (a day number): an amount dated so is a 5-year amount. */
export function inWindowOrUndated(asOf: number, date: unknown): boolean {
  if (typeof date !== 'string') return true;
  const parsed = memoDate(date);
  return parsed === null || monthsBefore(asOf, parsed.day) <= ENFORCEMENT_WINDOW_MONTHS;
}

/** A date text as an event in the window of `asOf` (a day number), or null when it is missing, unreadable or older than the window. */
export function datedInWindow(asOf: number, date: unknown): DatedEvent | null {
  if (typeof date !== 'string') return null;
  const parsed = memoDate(date);
  if (parsed === null) return null;
  const monthsAgo = monthsBefore(asOf, parsed.day);
  return monthsAgo <= ENFORCEMENT_WINDOW_MONTHS ? { date: parsed.iso, monthsAgo } : null;
}
