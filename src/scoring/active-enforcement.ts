import type { ScoreFacts } from './facts';
import { months } from './format';
import { OPEN_FORMAL_ACTION_MONTHS } from './rules';

/**
 * ECHO publishes no "case open" flag, so "at least one open enforcement action" (spec 2.2) is
 * derived: the facility is in significant violation now (EPA policy expects SNC/HPV to be
 * addressed by formal enforcement, and the status stays until it is resolved), or it had a dated
 * formal action within the last 12 months (orders and decrees run compliance schedules that long).
 * Informal actions and penalties alone do not count: the first is not enforcement in EPA's sense,
 * the second is usually the final step that closes a case.
 */
export function isActiveEnforcement(f: ScoreFacts): boolean {
  if (f.currentStatus === 'significant') return true;
  const formal = f.lastFormalAction;
  return formal !== null && formal.date !== null && formal.monthsAgo <= OPEN_FORMAL_ACTION_MONTHS;
}

export function explainActiveEnforcement(f: ScoreFacts): string {
  if (f.currentStatus === 'significant') return 'Yes: currently in significant violation';
  const formal = f.lastFormalAction;
  if (formal && formal.date !== null && formal.monthsAgo <= OPEN_FORMAL_ACTION_MONTHS) {
    const when = formal.date > f.asOf ? 'after the as-of date' : `${months(formal.monthsAgo)} before ${f.asOf}`;
    return `Yes: formal enforcement action on ${formal.date}, ${when}`;
  }
  if (formal && formal.date === null) return 'No: a formal action is reported but not its date, so it cannot be shown to be open';
  return `No: not in significant violation and no formal action in the ${OPEN_FORMAL_ACTION_MONTHS} months before ${f.asOf}`;
}
