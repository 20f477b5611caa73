import type { ScoreFacts } from './facts';
import type { DatedEvent } from './events';
import type { ActiveEnforcementBasis } from './model';
import { RECENT_ACTION_MONTHS } from './rules';

/**
 * The API's contract asks for "at least one open enforcement action", which the exporter cannot show: it has no
 * case status or closing date. What it can show, and what the flag means since fcs-4.0:
 * - `snc_answered`: the facility is in significant violation now and a formal action or federal case
 *   is dated on or after the first quarter of its current significant run (the violation is being
 *   addressed, in the sense of EPA's enforcement response policies);
 * - `recent_action`: a formal action or federal case is dated in the 12 months before the as-of date.
 * An undated count or case number alone shows neither (no date, no claim), nor do informal actions,
 * penalties alone or a CWA "resolved pending" code. Null: not active.
 */
export function activeEnforcementBasis(f: ScoreFacts): ActiveEnforcementBasis | null {
  if (f.sncAnsweredBy === 'formal_action' || f.sncAnsweredBy === 'federal_case') return 'snc_answered';
  if (latestAction(f) !== null && latestAction(f)!.monthsAgo <= RECENT_ACTION_MONTHS) return 'recent_action';
  return null;
}

export function isActiveEnforcement(f: ScoreFacts): boolean {
  return activeEnforcementBasis(f) !== null;
}

/** The later of the latest formal action and the latest federal case dated in the window. */
function latestAction(f: ScoreFacts): DatedEvent | null {
  const a = f.formal.latest, b = f.federal.latest;
  if (!a || !b) return a ?? b;
  return b.date > a.date ? b : a;
}

/** "Yes: ..." / "No: ..." in the same terms as the flag, never "open". */
export function explainActiveEnforcement(f: ScoreFacts): string {
  const basis = activeEnforcementBasis(f);
  const latest = latestAction(f);
  const what = latest === f.federal.latest && latest !== null && latest !== f.formal.latest ? 'federal enforcement case' : 'formal enforcement action';
  if (basis === 'snc_answered') {
    return `Yes: significant violation being addressed: a ${what} on ${latest!.date}, on or after the start of the current significant violation (${f.sncRunQuarters === 1 ? 'its latest quarter' : `${f.sncRunQuarters} quarters running`})`;
  }
  if (basis === 'recent_action') return `Yes: enforcement action in the last 12 months: a ${what} on ${latest!.date}${latest!.date > f.asOf ? ' (after the data date)' : ''}`;
  const snc = f.currentStatus === 'significant' ? '; the facility is in significant violation, with no enforcement action dated since it began' : '';
  const when = latest
    ? `the latest, on ${latest.date}, is older`
    : f.formalActions > 0
      ? 'the actions on record have no date'
      : 'none in the last 5 years';
  return `No: no formal enforcement action or federal case dated in the last 12 months (${when})${snc}`;
}
