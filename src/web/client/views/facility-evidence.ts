import { fmtInt, h } from '../dom';

type Case = { case_id: string; url: string };
export type Evidence = {
  quarter_history?: { caa: string | null; cwa: string | null; rcra: string | null };
  federal_cases?: Case[] | null;
  latest_action_by?: 'EPA' | 'state' | null;
  latest_action_date?: string | null;
  tri_on_site_releases_lbs?: number | null;
  tri_releases_transfers_lbs?: number | null;
  ghg_co2_tonnes?: number | null;
  redacted?: boolean;
};
type EventKind = 'formal_action' | 'federal_case' | 'penalty' | 'informal_action';
export type Completeness = {
  inputs_missing: string[];
  undated_events: EventKind[];
  events_before_window: EventKind[];
  no_inspection_in_5_years: boolean | null;
  facility_inactive: boolean | null;
  unknown_quarters: number;
};

const EVENT_WORDS: Record<EventKind, string> = { formal_action: 'formal action', federal_case: 'federal case', penalty: 'penalty', informal_action: 'informal action' };
const PROGRAMS: [keyof NonNullable<Evidence['quarter_history']>, string][] = [['caa', 'Clean Air Act'], ['cwa', 'Clean Water Act'], ['rcra', 'RCRA']];
const NOT_REPORTED = 'not reported';

/** A link to ECHO, in a new tab: the evidence is ECHO's own record. */
const echoLink = (href: string, text: string) => h('a', { href, target: '_blank', rel: 'noopener noreferrer' }, text);
const amount = (n: number | null | undefined, unit: string) => (n === null || n === undefined ? NOT_REPORTED : `${fmtInt(Math.round(n))} ${unit}`);

/** The notes of data_completeness, as the PDF words them (src/scoring/completeness.ts completenessNotes). */
export function completenessNotes(c: Completeness): string[] {
  const notes: string[] = [];
  if (c.no_inspection_in_5_years === true) notes.push('No inspection in the last 5 years.');
  if (c.facility_inactive === true) notes.push('Inactive facility: no active permit or program record.');
  if (c.unknown_quarters > 0) notes.push(`${c.unknown_quarters} quarter${c.unknown_quarters === 1 ? '' : 's'} of undetermined status (unknown, not clean).`);
  if (c.undated_events.length > 0) notes.push(`Undated in the source: ${c.undated_events.map((k) => EVENT_WORDS[k]).join(', ')}.`);
  if (c.events_before_window.length > 0) notes.push(`Older than 5 years, not counted: ${c.events_before_window.map((k) => EVENT_WORDS[k]).join(', ')}.`);
  if (c.inputs_missing.length > 0) notes.push(`Not reported by the source: ${c.inputs_missing.join(', ')}.`);
  return notes;
}

function rows(e: Evidence): HTMLElement[] {
  const cases = e.federal_cases;
  const caseCell =
    cases === null || cases === undefined ? NOT_REPORTED : cases.length === 0 ? 'none on record' : h('span', {}, ...cases.flatMap((c, i) => [i > 0 ? ', ' : '', echoLink(c.url, c.case_id)]));
  const latest = e.latest_action_by ? `${e.latest_action_by}, ${e.latest_action_date}` : 'no action date on record';
  const out: [string, Node | string][] = [
    ['Federal enforcement cases', caseCell],
    ['Latest action by', latest],
    ['TRI releases (latest year)', `${amount(e.tri_on_site_releases_lbs, 'lb on site')}; ${amount(e.tri_releases_transfers_lbs, 'lb with transfers')}`],
    ['Greenhouse gases', amount(e.ghg_co2_tonnes, 't CO2e')],
  ];
  for (const [key, label] of PROGRAMS) {
    const history = e.quarter_history?.[key];
    if (history) out.push([`${label} quarters`, h('code', {}, history)]);
  }
  return out.map(([label, value]) => h('tr', {}, h('th', { scope: 'row' }, label), h('td', {}, value)));
}

/**
 * ECHO records beside the score, never part of it: the facility's ECHO report (every plan), the
 * evidence (Starter+; a plan that redacts it says so once, in the upgrade box) and what the data lacks.
 */
export function evidenceSection(evidence: Evidence | undefined, dfrUrl: string | undefined, completeness: Completeness | null | undefined): HTMLElement | null {
  if (!dfrUrl && !evidence && !completeness) return null; // an older server
  const notes = completeness ? completenessNotes(completeness) : [];
  const shown = evidence && !evidence.redacted;
  return h(
    'section',
    { class: 'panel evidence', 'aria-labelledby': 'evidence-h' },
    h('h3', { id: 'evidence-h' }, 'Evidence beside the score'),
    dfrUrl ? h('p', {}, echoLink(dfrUrl, 'Detailed Facility Report on ECHO'), ' (EPA)') : null,
    shown ? h('table', { class: 'data evidence-table' }, h('tbody', {}, ...rows(evidence))) : null,
    completeness
      ? notes.length === 0
        ? h('p', { class: 'completeness muted' }, 'Data completeness: nothing missing from the source for this score.')
        : h('ul', { class: 'completeness' }, ...notes.map((n) => h('li', {}, n)))
      : null,
  );
}
