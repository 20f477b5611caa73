import type { ScoreFacts } from './facts';
import { plural } from './format';
import { olderNote } from './penalty-severity';

/**
 * The API's contract: "at least one open enforcement action". The exporter has no case status: for formal actions
 * it gives a 5-year count and the date of the latest (FAC_*, per program), for federal cases their
 * numbers (FEC_CASE_IDS), a count and the latest case date. So an action in the 5-year window is taken
 * as open unless the data shows it closed, which it never does; and with no action there is nothing
 * open, whatever the facility's violations. Informal actions and penalties alone do not count.
 */
export function isActiveEnforcement(f: ScoreFacts): boolean {
  return f.formalActions > 0;
}

/** "Yes: ..." / "No: ..." in the same terms as the flag. */
export function explainActiveEnforcement(f: ScoreFacts): string {
  if (!isActiveEnforcement(f)) {
    const snc = f.currentStatus === 'significant' ? '; the facility is in significant violation, but no action on it is on record' : '';
    return `No: no formal enforcement action or federal case in the last 5 years${olderNote(f.formal.olderDate ?? f.federal.olderDate, 'the latest on record')}${snc}`;
  }
  const what = [
    f.formal.count > 0 ? plural(f.formal.count, 'formal enforcement action') : null,
    f.federal.count > 0 ? plural(f.federal.count, 'federal enforcement case') : null,
  ].filter((x) => x !== null);
  const latest = [f.formal.latest, f.federal.latest].filter((x) => x !== null).sort((a, b) => (a.date < b.date ? 1 : -1))[0];
  const older = f.formal.olderDate !== null || f.federal.olderDate !== null;
  const when = latest
    ? latest.date > f.asOf ? `, the latest on ${latest.date} (after the data date)` : `, the latest on ${latest.date}`
    : older ? ', none of them dated in the last 5 years' : ', with no date in the file';
  const one = f.formal.count + f.federal.count === 1;
  return `Yes: ${what.join(' and ')} in the last 5 years${when}; the data does not say whether ${one ? 'it has' : 'any has'} been closed`;
}
