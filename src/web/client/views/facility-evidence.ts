// the same sentences as the PDF's (one module, taken into the page's bundle)
import { completenessNotes, type CompletenessForNotes } from '../../../shared/completeness-notes';
import { fmtInt, h } from '../dom';

type Case = { case_id: string; url: string | null };
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
    cases === null || cases === undefined ? NOT_REPORTED : cases.length === 0 ? 'none on record' : h('span', {}, ...cases.flatMap((c, i) => [i > 0 ? ', ' : '', c.url ? echoLink(c.url, c.case_id) : c.case_id]));
  const latest = e.latest_action_by ? `${e.latest_action_by}, ${e.latest_action_date}` : 'no action date on record';
  const out: [string, Node | string][] = [
    ['Federal enforcement cases', caseCell],
    ['Latest action by', latest],
    ['TRI releases (latest year)', triText(e)],
    ['Greenhouse gases', amount(e.ghg_co2_tonnes, 't CO2e')],
  ];
  for (const [key, label] of PROGRAMS) {
    const history = e.quarter_history?.[key];
    if (history) out.push([`${label} quarters`, quarterStrip(history, label)]);
  }
  return out.map(([label, value]) => h('tr', {}, h('th', { scope: 'row' }, label), h('td', {}, value)));
}

/** Both TRI figures absent is one "not reported", not two. */
function triText(e: Evidence): string {
  if ((e.tri_on_site_releases_lbs ?? null) === null && (e.tri_releases_transfers_lbs ?? null) === null) return NOT_REPORTED;
  return `${amount(e.tri_on_site_releases_lbs, 'lb on site')}; ${amount(e.tri_releases_transfers_lbs, 'lb with transfers')}`;
}

/** ECHO's quarter codes, as the PDF's strip draws them. */
export const QUARTERS: Record<string, { cls: string; label: string }> = {
  _: { cls: 'q-none', label: 'No violation' },
  V: { cls: 'q-v', label: 'Violation' },
  S: { cls: 'q-s', label: 'Significant violation' },
  U: { cls: 'q-u', label: 'Undetermined' },
};

/** A program's quarters as a strip of squares, oldest first, each named for screen readers; unknown codes read as undetermined. */
function quarterStrip(history: string, program: string): HTMLElement {
  const n = history.length;
  const counts = new Map<string, number>();
  const cells = [...history].map((q, i) => {
    const k = QUARTERS[q] ?? QUARTERS.U!;
    counts.set(k.label, (counts.get(k.label) ?? 0) + 1);
    const ago = n - 1 - i;
    return h('span', { class: `q ${k.cls}`, title: `${ago === 0 ? 'Latest quarter' : `${ago} ${ago === 1 ? 'quarter' : 'quarters'} before the latest`}: ${k.label}${QUARTERS[q] ? '' : ` (code ${q})`}` }, q === '_' ? '' : q);
  });
  const summary = [...counts].map(([label, c]) => `${c} ${label.toLowerCase()}`).join(', ');
  return h('span', { class: 'quarter-strip', role: 'img', 'aria-label': `${program}, last ${n} quarters, oldest first: ${summary}` }, ...cells);
}

/** What the strip's colours mean, once under the table. */
function quarterLegend(): HTMLElement {
  return h('p', { class: 'quarter-legend muted' }, 'Quarters, oldest on the left: ', ...Object.values(QUARTERS).flatMap((k) => [h('span', { class: `q ${k.cls}`, 'aria-hidden': 'true' }), ` ${k.label} `]));
}

/**
 * ECHO records beside the score, never part of it: the facility's ECHO report (every plan), the
 * evidence (Starter+; a plan that redacts it says so once, in the upgrade box) and what the data lacks.
 */
export function evidenceSection(evidence: Evidence | undefined, dfrUrl: string | null | undefined, completeness: Completeness | null | undefined): HTMLElement | null {
  if (dfrUrl === undefined && !evidence && !completeness) return null; // an older server
  const notes = completeness ? completenessNotes(completeness) : [];
  const shown = evidence && !evidence.redacted;
  return h(
    'section',
    { class: 'panel evidence', 'aria-labelledby': 'evidence-h' },
    h('h3', { id: 'evidence-h' }, 'Evidence beside the score'),
    dfrUrl ? h('p', {}, echoLink(dfrUrl, 'Detailed Facility Report on ECHO'), ' (EPA)') : dfrUrl === null ? h('p', { class: 'muted' }, 'No ECHO report: this Registry ID is not one EPA issues (the FICTITIOUS sample invents IDs starting 99).') : null,
    shown ? h('table', { class: 'data evidence-table' }, h('tbody', {}, ...rows(evidence))) : null,
    shown && Object.values(evidence.quarter_history ?? {}).some(Boolean) ? quarterLegend() : null,
    completeness
      ? notes.length === 0
        ? h('p', { class: 'completeness muted' }, 'Data completeness: nothing missing from the source for this score.')
        : h('ul', { class: 'completeness' }, ...notes.map((n) => h('li', {}, n)))
      : null,
  );
}
