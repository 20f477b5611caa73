/**
 * The plain sentences of a data_completeness (src/scoring/completeness.ts), one wording for the PDF
 * and the web page. No imports: the page's bundle (scripts/build-web.ts) takes this file as it is.
 */
type EventKind = 'formal_action' | 'federal_case' | 'penalty' | 'informal_action';
export type CompletenessForNotes = {
  inputs_missing: string[];
  undated_events: EventKind[];
  events_before_window: EventKind[];
  no_inspection_in_5_years: boolean | null;
  facility_inactive: boolean | null;
  unknown_quarters: number;
  /** Absent in an index built before the rule: read as sufficient. */
  sufficient?: boolean;
  insufficient_reasons?: string[];
};

const REASON_WORDS: Record<string, string> = {
  inactive: 'inactive',
  no_inspection_or_known_quarter: 'no inspection in 5 years and no quarter of known status',
};

/** The label shown in place of a score band when the data is not enough to judge the facility. */
export const NOT_ENOUGH_DATA = 'Not enough data';

/** True when the data is enough to judge the facility (an index without the rule says nothing: true). */
export function isSufficient(c: Pick<CompletenessForNotes, 'sufficient'> | null | undefined): boolean {
  return c?.sufficient !== false;
}

/** "Not enough data to judge this facility: ..." naming the reasons, or null when the data is enough. */
export function insufficientSentence(c: Pick<CompletenessForNotes, 'sufficient' | 'insufficient_reasons'> | null | undefined): string | null {
  if (isSufficient(c)) return null;
  const reasons = (c!.insufficient_reasons ?? []).map((r) => REASON_WORDS[r] ?? r);
  return `Not enough data to judge this facility (${reasons.length > 0 ? reasons.join('; ') : 'too little on record'}): its score does not rank it.`;
}

const EVENT_WORDS: Record<EventKind, string> = { formal_action: 'formal action', federal_case: 'federal case', penalty: 'penalty', informal_action: 'informal action' };

/** What a facility's data lacks, as sentences; empty when nothing does. */
export function completenessNotes(c: CompletenessForNotes): string[] {
  const notes: string[] = [];
  const insufficient = insufficientSentence(c);
  if (insufficient !== null) notes.push(insufficient);
  if (c.no_inspection_in_5_years === true) notes.push('No inspection in the last 5 years.');
  if (c.facility_inactive === true) notes.push('Inactive facility: no active permit or program record.');
  if (c.unknown_quarters > 0) notes.push(`${c.unknown_quarters} quarter${c.unknown_quarters === 1 ? '' : 's'} of undetermined status (unknown, not clean).`);
  if (c.undated_events.length > 0) notes.push(`Undated in the source: ${c.undated_events.map((k) => EVENT_WORDS[k]).join(', ')}.`);
  if (c.events_before_window.length > 0) notes.push(`Older than 5 years, not counted: ${c.events_before_window.map((k) => EVENT_WORDS[k]).join(', ')}.`);
  if (c.inputs_missing.length > 0) notes.push(`Not reported by the source: ${c.inputs_missing.join(', ')}.`);
  return notes;
}
