import { getFile, getJson, saveBlob } from '../api';
import { componentBar, gauge } from '../charts';
import { h, notice, put } from '../dom';
import { covers, keyPlan, type Plan } from '../plan';
import { routeHref, type Route } from '../router';
import { enforcementText, failureNotice, loading, needKey, viewHeading } from './common';
import { explanationSection, historySection, peersSection, programsSection } from './facility-sections';
import { evidenceSection, type Completeness, type Evidence } from './facility-evidence';
import { insufficientSentence } from '../../../shared/completeness-notes';

type Component = { score: number; max_points: number };
type Components = {
  baseline?: number;
  violation_frequency?: Component;
  penalty_severity?: Component;
  recency?: Component;
  repeat_offender?: Component;
  redacted?: boolean;
  message?: string;
};
type FacilityRecord = {
  registry_id: string;
  fac_name: string;
  fac_street: string;
  fac_city: string;
  fac_state: string;
  fac_zip: string;
  fac_naics?: string | null;
  location?: { lat: number; lng: number };
  overall_score: number;
  active_enforcement: boolean;
  active_enforcement_basis?: string | null;
  score_components: Components;
  programs?: unknown;
  peers?: unknown;
  explanation?: unknown;
  score_change?: { previous_score: number; previous_as_of: string; reason?: string } | null;
  evidence?: Evidence;
  dfr_url?: string | null;
  data_completeness?: Completeness | null;
};

const COMPONENTS: [keyof Components, string][] = [
  ['violation_frequency', 'Violation frequency'],
  ['penalty_severity', 'Penalty severity'],
  ['recency', 'Recency'],
  ['repeat_offender', 'Repeat offender'],
];

/**
 * A plan that redacts the breakdown (Free) gets one box where the breakdown would be, saying what a
 * higher plan adds, instead of a redaction sentence in every section and controls that answer 403.
 */
function upgradeBox(c: Components): HTMLElement {
  return h(
    'section',
    { class: 'panel upsell', 'aria-labelledby': 'components-h' },
    h('h3', { id: 'components-h' }, 'Score breakdown'),
    h('p', { class: 'notice notice-info redaction', role: 'status' }, c.message ?? 'Score components are not shown on this plan.'),
    h('p', {}, 'The Starter plan adds the breakdown, why points were lost, industry peers, programs, the score history and the area map; Platform adds the PDF dossier.'),
  );
}

function componentsSection(c: Components): HTMLElement {
  if (c.redacted) return upgradeBox(c);
  const body: Node[] = [];
  if (typeof c.baseline === 'number') body.push(h('p', {}, `Every facility starts from ${c.baseline} base points; the four parts below add up to the rest.`));
  for (const [key, label] of COMPONENTS) {
    const v = c[key] as Component | undefined;
    if (v && typeof v.score === 'number') body.push(componentBar(label, v.score, v.max_points));
  }
  return h('section', { class: 'panel', 'aria-labelledby': 'components-h' }, h('h3', { id: 'components-h' }, 'Score breakdown'), ...body);
}

function changeLine(c: FacilityRecord['score_change']): HTMLElement | null {
  if (c === undefined) return null;
  if (c === null) return h('p', { class: 'muted' }, 'No score change on record.');
  // a new score method is not a change of the facility: say so, so a drop is not read as the facility's
  const why = c.reason === 'method' ? ' (the score method changed; the facility\'s record did not)' : c.reason === 'data_and_method' ? ' (its record and the score method both changed)' : '';
  return h('p', {}, `Was ${c.previous_score} as of ${c.previous_as_of}${why}.`);
}

function reportButton(id: string, plan: Plan | null): HTMLElement | null {
  // A paid plan below Platform sees the button disabled with the one line saying which plan has it.
  if (!covers(plan, 'report')) {
    if (!covers(plan, 'area')) return null;
    return h('div', { class: 'report' }, h('button', { type: 'button', class: 'secondary', disabled: true, 'aria-describedby': 'report-hint' }, 'Download PDF report'), h('small', { class: 'hint', id: 'report-hint' }, 'PDF dossier: Platform plan or above.'));
  }
  const out = h('div', { 'aria-live': 'polite' });
  const button = h('button', { type: 'button', class: 'secondary' }, 'Download PDF report');
  button.addEventListener('click', async () => {
    button.disabled = true;
    put(out, loading('the PDF report'));
    const r = await getFile(`/api/v1/facility/${encodeURIComponent(id)}/report`, { method: 'POST', accept: 'application/pdf' });
    button.disabled = false;
    if (!r.ok) return put(out, failureNotice(r, 'PDF reports'));
    saveBlob(r.data.blob, r.data.filename);
    put(out, notice(`Saved ${r.data.filename}.`));
  });
  return h('div', { class: 'report' }, button, h('small', { class: 'hint' }, 'Platform plan and above.'), out);
}

/** One facility: gauge, breakdown, why, peers, programs, evidence, history, PDF. */
export async function facilityView(main: HTMLElement, route: Route): Promise<void> {
  const id = route.id ?? '';
  const gate = needKey('A facility record');
  if (gate) return put(main, viewHeading('Facility'), gate);
  put(main, viewHeading('Facility'), loading(`facility ${id}`));
  const [r, plan] = await Promise.all([getJson<FacilityRecord>(`/api/v1/facility/${encodeURIComponent(id)}?include=evidence`), keyPlan()]);
  if (!r.ok) return put(main, viewHeading('Facility'), failureNotice(r, 'facility lookups'));
  const f = r.data;
  // A plan that redacts the breakdown redacts what explains it too: one box says so (upgradeBox).
  const redacted = f.score_components.redacted === true;
  const heading = viewHeading(f.fac_name);
  put(
    main,
    heading,
    h('p', { class: 'address' }, `${f.fac_street}, ${f.fac_city}, ${f.fac_state} ${f.fac_zip}`),
    h('p', { class: 'muted' }, `EPA Registry ID ${f.registry_id}${f.fac_naics ? ` · NAICS ${f.fac_naics}` : ''}`),
    f.location && covers(plan, 'area') ? h('p', {}, h('a', { href: routeHref('area', { lat: f.location.lat, lng: f.location.lng, r: 5, near: f.fac_name }) }, 'Facilities within 5 miles on the map')) : null,
    h(
      'div',
      { class: 'summary' },
      h('div', { class: 'gauge-wrap' }, gauge(f.overall_score, f.data_completeness?.sufficient !== false)),
      h(
        'div',
        {},
        h('p', { class: 'score-line' }, `Compliance score ${f.overall_score} of 100 (higher is better).`),
        insufficientSentence(f.data_completeness) === null ? null : h('p', { class: 'not-enough-data' }, insufficientSentence(f.data_completeness)!),
        changeLine(f.score_change),
        h('p', {}, enforcementText(f.active_enforcement, f.active_enforcement_basis)),
        reportButton(f.registry_id, plan),
      ),
    ),
    componentsSection(f.score_components),
    redacted ? null : explanationSection(f.explanation),
    redacted ? null : peersSection(f.peers),
    redacted ? null : programsSection(f.programs),
    evidenceSection(f.evidence, f.dfr_url, f.data_completeness),
    covers(plan, 'history') ? historySection(f.registry_id) : null,
  );
}
