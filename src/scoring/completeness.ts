import { t, type Static } from '../shared/typebox';
import type { EventFacts } from './events';
import type { ScoreFacts } from './facts';
import { ScoreInputs } from './model';

/** The two ECHO layouts ingest reads (src/ingest/columns.ts SourceFormat). */
export const SourceFormat = t.Union([t.Literal('echo-exporter'), t.Literal('echo-facility-search')]);
export type SourceFormat = Static<typeof SourceFormat>;

const EventKind = t.Union([t.Literal('formal_action'), t.Literal('federal_case'), t.Literal('penalty'), t.Literal('informal_action')]);
type EventKind = Static<typeof EventKind>;

const INPUT_FIELDS = Object.keys(ScoreInputs.properties).filter((k) => k !== 'programs' && k !== 'not_reported');

/** Why a facility's data is not enough to judge it. */
export const InsufficientReason = t.Union([t.Literal('inactive'), t.Literal('no_inspection_or_known_quarter')], {
  description: 'inactive: FAC_ACTIVE_FLAG is N; no_inspection_or_known_quarter: no inspection in 5 years and no quarter of known compliance status',
});
export type InsufficientReason = Static<typeof InsufficientReason>;

const inactive = (f: ScoreFacts) => f.facilityActive === false;
// inspections not reported count as none shown
const unobserved = (f: ScoreFacts) => (f.inspections === null || f.inspections.count === 0) && f.knownQuarters === 0;

/** The reasons a facility's data is not enough to judge it (empty: enough). */
export function insufficientReasons(f: ScoreFacts): InsufficientReason[] {
  const out: InsufficientReason[] = [];
  if (inactive(f)) out.push('inactive');
  if (unobserved(f)) out.push('no_inspection_or_known_quarter');
  return out;
}

/** True when insufficientReasons is empty, without building it (ingest asks for every row). */
export function hasEnoughData(f: ScoreFacts): boolean {
  return !inactive(f) && !unobserved(f);
}

/** How complete the data behind one facility's score is: what the source lacks and what the model could not place. */
export const DataCompleteness = t.Object({
  source_format: SourceFormat,
  /**
   * The score inputs the source has no column for; every other one was present. Only the missing
   * ones are listed: sent with every lookup, the full list of present ones would add every input's
   * name to answer the same question.
   */
  inputs_missing: t.Array(t.String(), {
    description: `Score inputs the source has no column for; every other one of ${INPUT_FIELDS.join(', ')} was present (per-program records are listed under programs)`,
  }),
  /** Events counted in the 5-year window that carry no date in it: they cost no recency. */
  undated_events: t.Array(EventKind),
  /** Events whose latest date on record is older than the 5-year window: not counted. */
  events_before_window: t.Array(EventKind),
  /** No inspection in the 5-year window; null when the source does not report inspections. */
  no_inspection_in_5_years: t.Union([t.Boolean(), t.Null()]),
  /** FAC_ACTIVE_FLAG is `N` (no active permit or program record); null when the source does not say. */
  facility_inactive: t.Union([t.Boolean(), t.Null()]),
  /** Quarters of the 3-year history whose status is undetermined (`U`): unknown, not clean. */
  unknown_quarters: t.Integer({ minimum: 0 }),
  /**
   * Enough data to judge the facility: false when it is inactive, or has no inspection in 5 years and
   * no quarter of known compliance status. The score is still computed (an integer is always given);
   * pages and reports show "Not enough data" in place of its band, and peer groups leave it out.
   */
  sufficient: t.Boolean({ description: 'false: not enough data to judge (insufficient_reasons says why); shown as "Not enough data" in place of a band, and left out of peer groups' }),
  insufficient_reasons: t.Array(InsufficientReason, { description: 'Empty when sufficient' }),
});
export type DataCompleteness = Static<typeof DataCompleteness>;

/** A list item's (area, search, portfolio, watchlist, site report) one-bit summary of data_completeness. */
export const DataSufficient = t.Boolean({
  description: 'false: not enough data to judge the facility (its lookup\'s data_completeness.insufficient_reasons says why): show "Not enough data" in place of a score band',
});

/** The data_completeness summary of a facility, from the same facts its score uses. Pure. */
export function dataCompleteness(f: ScoreFacts, sourceFormat: SourceFormat): DataCompleteness {
  const reasons = insufficientReasons(f);
  const kinds: [EventKind, EventFacts][] = [['formal_action', f.formal], ['federal_case', f.federal], ['penalty', f.penalties], ['informal_action', f.informal]];
  return {
    source_format: sourceFormat,
    inputs_missing: INPUT_FIELDS.filter((k) => f.notReported.includes(k)),
    undated_events: kinds.filter(([, e]) => e.undated).map(([k]) => k),
    events_before_window: kinds.filter(([, e]) => e.olderDate !== null && e.latest === null).map(([k]) => k),
    no_inspection_in_5_years: f.inspections === null ? null : f.inspections.count === 0,
    facility_inactive: f.facilityActive === null ? null : !f.facilityActive,
    unknown_quarters: f.unknownQuarters,
    sufficient: reasons.length === 0,
    insufficient_reasons: reasons,
  };
}

/**
 * A string that is equal for any two facts whose dataCompleteness is equal (in the same format): the
 * few things it reads, without building its arrays. Ingest derives one per row and builds the value
 * only for a key it has not seen (a national build has about a hundred distinct values).
 */
export function completenessKey(f: ScoreFacts, sourceFormat: SourceFormat): string {
  // two bits per kind, in a fixed order, without a list of the four (this runs for every row at ingest)
  const events = eventBits(f.formal) * 64 + eventBits(f.federal) * 16 + eventBits(f.penalties) * 4 + eventBits(f.informal);
  const inspected = f.inspections === null ? 'n' : f.inspections.count === 0 ? '0' : '1';
  const active = f.facilityActive === null ? 'n' : f.facilityActive ? '1' : '0';
  return `${sourceFormat}|${events}|${inspected}${active}${f.knownQuarters === 0 ? 'k' : ''}|${f.unknownQuarters}|${f.notReported.join(',')}`;
}

function eventBits(e: EventFacts): number {
  return (e.undated ? 2 : 0) + (e.olderDate !== null && e.latest === null ? 1 : 0);
}

/** Plain sentences of what a facility's data lacks (the dossier's and the page's notes). */
export { completenessNotes } from '../shared/completeness-notes';
