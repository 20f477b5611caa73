// the same sentences as the PDF's (one module, taken into the page's bundle)
import { completenessNotes, type CompletenessForNotes } from '../../../shared/completeness-notes';
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
export type Completeness = CompletenessForNotes;

const PROGRAMS: [keyof NonNullable<Evidence['quarter_history']>, string][] = [['caa', 'Clean Air Act'], ['cwa', 'Clean Water Act'], ['rcra', 'RCRA']];
const NOT_REPORTED = 'not reported';

/** A link to ECHO, in a new tab: the evidence is ECHO's own record. */
const echoLink = (href: string, text: string) => h('a', { href, target: '_blank', rel: 'noopener noreferrer' }, text);
const amount = (n: number | null | undefined, unit: string) => (n === null || n === undefined ? NOT_REPORTED : `${fmtInt(Math.round(n))} ${unit}`);


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
