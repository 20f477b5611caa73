import { h } from '../dom';
import { routeHref } from '../router';
import { enforcementText, scoreBadge } from './common';
import { sortableTable } from './sortable-table';

type Finding = {
  registry_id: string;
  fac_name: string;
  fac_street: string;
  fac_city: string;
  fac_state: string;
  fac_zip: string;
  distance_miles: number;
  bearing_degrees: number;
  direction: string;
  categories: string[];
  overall_score: number;
  significant_violation: boolean;
  active_enforcement: boolean;
  programs: string[];
  program_ids: Record<'air' | 'npdes' | 'rcra' | 'sdwa' | 'tri', string[]>;
  rcra_generator_size: string | null;
  latest_violation_quarter: string | null;
  latest_action_date: string | null;
  location_accuracy_m: number | null;
  location_method: string | null;
  location: { lat: number; lng: number };
  data_sufficient?: boolean;
};
type Unplaced = Pick<Finding, 'registry_id' | 'fac_name' | 'fac_street' | 'fac_city' | 'fac_state' | 'fac_zip' | 'categories' | 'overall_score' | 'data_sufficient'> & { zip: string | null; reason: string };
type Counts = Record<string, number>;
export type Report = {
  site: { lat: number; lng: number; located_by: string; approximate: boolean; name: string | null; address: string | null; zip: string | null; note: string; boundary: { type: string; coordinates: number[][][] | number[][][][] } | null };
  findings: Finding[];
  unmapped: { zip: string | null; searched: boolean; note: string; facilities: Unplaced[] };
  summary: { category: string; label: string; search_distance_miles: number; coverage: 'searched' | 'broadened' | 'not_searched'; note: string; counts: Counts; total: number }[];
  sources: { searched: { name: string; as_of: string | null; note: string }[]; not_searched: { name: string; astm_search_distance: string; why: string }[] };
  dataset: { name: string; as_of: string; fictitious: boolean; score_method: string };
  warnings: { code: string; message: string }[];
};

const BANDS: [string, string][] = [
  ['on_site', 'On site'],
  ['to_eighth', '< 1/8 mi'],
  ['to_quarter', '1/8–1/4'],
  ['to_half', '1/4–1/2'],
  ['to_one', '1/2–1'],
  ['beyond_one', '> 1 mi'],
];
const COVERAGE = { searched: 'Searched', broadened: 'Broadened', not_searched: 'Not searched' } as const;
const SHORT: Record<string, string> = {
  on_site: 'on site', adjoining: 'adjoining', snc: 'SNC', enforcement: 'enforcement', rcra_tsd: 'RCRA TSD', rcra_generator: 'RCRA generator', tri: 'TRI', npdes: 'NPDES', caa_major: 'CAA major',
};
const categories = (keys: string[]) => keys.map((k) => SHORT[k] ?? k).join(', ') || '–';

/** Category × distance band: how many facilities each category lists in each band; "not searched" in words, never a zero. */
export function summaryTable(r: Report): HTMLElement {
  const head = h('tr', {}, h('th', { scope: 'col' }, 'Category'), h('th', { scope: 'col', class: 'num' }, 'Distance'), h('th', { scope: 'col' }, 'Coverage'), ...BANDS.map(([, l]) => h('th', { scope: 'col', class: 'num' }, l)), h('th', { scope: 'col', class: 'num' }, 'Total'));
  const rows = r.summary.map((s) => {
    const none = s.coverage === 'not_searched';
    return h(
      'tr',
      {},
      h('th', { scope: 'row' }, s.label),
      h('td', { class: 'num' }, s.search_distance_miles === 0 ? 'inside' : `${s.search_distance_miles} mi`),
      h('td', { title: s.note }, COVERAGE[s.coverage]),
      ...BANDS.map(([k]) => h('td', { class: 'num' }, none ? '–' : String(s.counts[k] ?? 0))),
      h('td', { class: 'num' }, none ? '–' : String(s.total)),
    );
  });
  const notes = r.summary.filter((s) => s.coverage !== 'searched').map((s) => h('li', {}, `${s.label}: ${s.note}`));
  // a scroll box on narrow screens: focusable and named, so a keyboard can scroll it
  return h('div', { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-label': 'Summary table' }, h('table', { class: 'data' }, h('caption', {}, 'Facilities listed, by category and distance band'), h('thead', {}, head), h('tbody', {}, ...rows)), notes.length ? h('ul', { class: 'notes' }, ...notes) : null);
}

const PROGRAM_IDS = [['air', 'AIR'], ['npdes', 'NPDES'], ['rcra', 'RCRA'], ['sdwa', 'SDWA'], ['tri', 'TRI']] as const;

/** Lines of a cell, one under the other (`kind` names them for styling); '' when there are none. */
const lines = (kind: string, items: (string | null | false)[]) => {
  const kept = items.filter((x): x is string => Boolean(x));
  return kept.length ? h('ul', { class: `cell-lines ${kind}` }, ...kept.map((x) => h('li', {}, x))) : '';
};

/** What pulls a finding's file, as the PDF prints it under the name: program IDs, generator size, the latest violation quarter and action date (those it has). */
function fileLines(f: Finding): Node | string {
  return lines('file', [
    ...PROGRAM_IDS.filter(([k]) => f.program_ids[k].length > 0).map(([k, label]) => `${label} ${f.program_ids[k].join(', ')}`),
    f.rcra_generator_size && `RCRA generator: ${f.rcra_generator_size}`,
    f.latest_violation_quarter && `Last violation: ${f.latest_violation_quarter}`,
    f.latest_action_date && `Last action: ${f.latest_action_date}`,
  ]);
}

/** How well ECHO places the facility: stated accuracy and collection method, or that neither is stated. */
function locationCell(f: Pick<Finding, 'location_accuracy_m' | 'location_method'>): Node | string {
  return lines('location', [f.location_accuracy_m === null ? 'Accuracy not stated' : `±${f.location_accuracy_m.toLocaleString('en-US')} m`, f.location_method]);
}

/** What a reader must know before relying on the report (the API's `warnings`, each its own sentence). */
export function warningsSection(r: Report): HTMLElement | null {
  if (r.warnings.length === 0) return null;
  return h('section', { class: 'notice notice-warn warnings', 'aria-labelledby': 'sr-warnings-h' }, h('h3', { id: 'sr-warnings-h' }, 'Before relying on this report'), h('ul', {}, ...r.warnings.map((w) => h('li', { 'data-code': w.code }, w.message))));
}

/** Every finding, nearest first (sortable), numbered as on the map. */
export function findingsTable(r: Report): HTMLElement {
  if (r.findings.length === 0) return h('p', {}, 'No facility falls under any searched category within its search distance.');
  const rows = r.findings.map((f, i) => ({ ...f, n: i + 1 }));
  const table = sortableTable(
    `Findings: ${rows.length} ${rows.length === 1 ? 'facility' : 'facilities'}`,
    [
      { label: '#', value: (f) => f.n, cell: (f) => String(f.n), numeric: true },
      { label: 'Facility', value: (f) => f.fac_name, cell: (f) => h('span', {}, h('a', { href: routeHref('facility', {}, f.registry_id) }, f.fac_name || f.registry_id), h('br'), h('small', { class: 'muted' }, `${f.fac_street}, ${f.fac_city}, ${f.fac_state} ${f.fac_zip}`), h('br'), h('small', { class: 'muted' }, `Registry ID ${f.registry_id}`), fileLines(f)) },
      { label: 'Distance (miles)', value: (f) => f.distance_miles, cell: (f) => f.distance_miles.toFixed(3), numeric: true },
      { label: 'Direction', value: (f) => f.bearing_degrees, cell: (f) => f.direction },
      { label: 'Categories', value: (f) => categories(f.categories), cell: (f) => categories(f.categories) },
      { label: 'Score', value: (f) => f.overall_score, cell: (f) => scoreBadge(f.overall_score, f.data_sufficient !== false), numeric: true },
      { label: 'SNC now', value: (f) => (f.significant_violation ? 0 : 1), cell: (f) => (f.significant_violation ? 'Yes' : 'No') },
      { label: 'Enforcement', value: (f) => (f.active_enforcement ? 0 : 1), cell: (f) => enforcementText(f.active_enforcement) },
      { label: 'Location', value: (f) => f.location_accuracy_m ?? Infinity, cell: locationCell },
    ],
    rows,
    0,
  );
  table.classList.add('findings');
  return h('div', { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-label': 'Findings table' }, table);
}

/** The facilities the report cannot place (no coordinates, or an approximate location), each with its ZIP and why; or why there are none. */
export function unmappedSection(r: Report): HTMLElement {
  const u = r.unmapped;
  const head = h('tr', {}, ...['Facility', 'ZIP', 'Why not placed', 'Record types', 'Score'].map((l) => h('th', { scope: 'col' }, l)));
  const rows = u.facilities.map((f) =>
    h(
      'tr',
      {},
      h('td', {}, h('a', { href: routeHref('facility', {}, f.registry_id) }, f.fac_name || f.registry_id), h('br'), h('small', { class: 'muted' }, `${f.fac_street}, ${f.fac_city}, ${f.fac_state} ${f.fac_zip}`)),
      h('td', {}, f.zip ?? 'none'),
      h('td', {}, f.reason),
      h('td', {}, categories(f.categories)),
      h('td', {}, scoreBadge(f.overall_score, f.data_sufficient !== false)),
    ),
  );
  return h(
    'section',
    { class: 'panel', 'aria-labelledby': 'sr-unmapped-h' },
    h('h3', { id: 'sr-unmapped-h' }, 'Facilities not placed: no coordinates, or an approximate location'),
    h('p', {}, u.note),
    rows.length ? h('div', { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-label': 'Facilities not placed' }, h('table', { class: 'data unmapped' }, h('caption', {}, `${rows.length} not placed`), h('thead', {}, head), h('tbody', {}, ...rows))) : null,
  );
}

/** What was searched, and every record source that was not. */
export function sourcesSection(r: Report): HTMLElement {
  return h(
    'section',
    { class: 'panel', 'aria-labelledby': 'sr-sources-h' },
    h('h3', { id: 'sr-sources-h' }, 'Sources'),
    h('ul', {}, ...r.sources.searched.map((s) => h('li', {}, h('strong', {}, s.name), s.as_of ? `, as of ${s.as_of}` : '', `: ${s.note}`))),
    h(
      'details',
      {},
      h('summary', {}, `Not searched: ${r.sources.not_searched.length} record sources`),
      h('ul', {}, ...r.sources.not_searched.map((s) => h('li', {}, h('strong', {}, s.name), ` (ASTM search distance ${s.astm_search_distance}): ${s.why}`))),
    ),
  );
}
