import type { EventAge, ScoreFacts } from './facts';
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
  return f.currentStatus === 'significant' || openFormalAction(f) !== null;
}

/** The last formal action if it is dated and recent enough to be taken as open; the flag and its explanation share this rule. */
function openFormalAction(f: ScoreFacts): EventAge | null {
  const formal = f.lastFormalAction;
  return formal !== null && formal.date !== null && formal.monthsAgo !== null && formal.monthsAgo <= OPEN_FORMAL_ACTION_MONTHS ? formal : null;
}

export function explainActiveEnforcement(f: ScoreFacts): string {
  if (f.currentStatus === 'significant') return 'Yes: currently in significant violation';
  const open = openFormalAction(f);
  if (open) {
    const when = open.date! > f.asOf ? 'after the as-of date' : `${months(open.monthsAgo!)} before ${f.asOf}`;
    return `Yes: formal enforcement action on ${open.date}, ${when}`;
  }
  if (f.lastFormalAction?.date === null) return 'No: a formal action is reported but not its date, so it cannot be shown to be open';
  return `No: not in significant violation and no formal action in the ${OPEN_FORMAL_ACTION_MONTHS} months before ${f.asOf}`;
}
