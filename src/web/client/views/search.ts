import { getJson, query } from '../api';
import { field, h, put } from '../dom';
import { routeHref, type Route } from '../router';
import { keyPlan } from '../plan';
import { downloads, enforcementText, failureNotice, needKey, planGate, scoreBadge, viewHeading } from './common';
import { scrollingTable } from './table-cue';

type SearchItem = { registry_id: string; fac_name: string; fac_street?: string; fac_city?: string; fac_state?: string; fac_zip?: string; overall_score: number; active_enforcement: boolean; data_sufficient?: boolean };
type SearchPage = { items?: SearchItem[]; facilities?: SearchItem[]; results?: SearchItem[]; next_cursor?: string | null; cursor?: string | null; total?: number; total_capped?: boolean };

const FILTERS = ['q', 'state', 'naics', 'min_score', 'max_score', 'active_enforcement', 'sort'] as const;

/** Items and next cursor under whichever names the search answer uses. */
function pageOf(d: SearchPage): { items: SearchItem[]; next: string | null } {
  return { items: d.items ?? d.facilities ?? d.results ?? [], next: d.next_cursor ?? d.cursor ?? null };
}

function row(f: SearchItem): HTMLTableRowElement {
  return h(
    'tr',
    {},
    h('td', {}, h('a', { href: routeHref('facility', {}, f.registry_id) }, f.fac_name)),
    h('td', { class: 'num' }, f.registry_id),
    h('td', {}, [f.fac_street, f.fac_city, [f.fac_state, f.fac_zip].filter(Boolean).join(' ')].filter(Boolean).join(', ')),
    h('td', {}, scoreBadge(f.overall_score, f.data_sufficient !== false)),
    h('td', {}, enforcementText(f.active_enforcement)),
  );
}

/** "3 facilities" / "More than 1,000 facilities": the search's own count of its matches. */
function matchCount(d: SearchPage): string {
  const n = d.total ?? 0;
  if (d.total_capped) return `More than ${n.toLocaleString('en-US')} facilities`;
  return `${n.toLocaleString('en-US')} ${n === 1 ? 'facility' : 'facilities'}`;
}

/** Search by name, street, city or ZIP (Starter+), with filters and "more results" by cursor. */
export async function searchView(main: HTMLElement, route: Route): Promise<void> {
  const p = route.params;
  const inputs = {
    q: h('input', { type: 'search', name: 'q', required: true, maxlength: 200, value: p.get('q') ?? '', placeholder: 'acme plating elkhart' }),
    state: h('input', { type: 'text', name: 'state', maxlength: 2, size: 3, value: p.get('state') ?? '', autocomplete: 'off', pattern: '[A-Za-z]{2}' }),
    naics: h('input', { type: 'text', name: 'naics', inputmode: 'numeric', maxlength: 6, size: 7, value: p.get('naics') ?? '', pattern: '[0-9]{2,6}' }),
    min_score: h('input', { type: 'number', name: 'min_score', min: 0, max: 100, value: p.get('min_score') ?? '' }),
    max_score: h('input', { type: 'number', name: 'max_score', min: 0, max: 100, value: p.get('max_score') ?? '' }),
    active_enforcement: h('select', { name: 'active_enforcement' }, h('option', { value: '' }, 'Any'), h('option', { value: 'true' }, 'Enforcement in the last 12 months or violation being addressed'), h('option', { value: 'false' }, 'No open action')),
    sort: h('select', { name: 'sort' }, h('option', { value: 'relevance' }, 'Best match'), h('option', { value: 'score' }, 'Worst score first')),
  };
  inputs.active_enforcement.value = p.get('active_enforcement') ?? '';
  inputs.sort.value = p.get('sort') ?? 'relevance';
  const form = h(
    'form',
    { class: 'stack', role: 'search', 'aria-label': 'Facility search' },
    field('Name, street, city or ZIP', inputs.q, 'Words match as prefixes: "acme plat elkh".'),
    h(
      'details',
      { class: 'filters', open: FILTERS.slice(1, 6).some((k) => p.get(k)) },
      h('summary', {}, 'Filters'),
      h('div', { class: 'row' }, field('State (2 letters)', inputs.state), field('NAICS code or prefix', inputs.naics), field('Lowest score', inputs.min_score), field('Highest score', inputs.max_score), field('Enforcement', inputs.active_enforcement)),
    ),
    field('Order', inputs.sort),
    h('button', { type: 'submit' }, 'Search'),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const next: Record<string, string> = {};
    for (const k of FILTERS) next[k] = inputs[k].value.trim();
    if (next.sort === 'relevance') next.sort = '';
    location.hash = routeHref('search', next);
  });
  const results = h('div', { class: 'results', 'aria-live': 'polite' });
  const gate = needKey('Search') ?? planGate(await keyPlan(), 'search', 'Search by name');
  put(main, viewHeading('Search facilities'), gate ?? form, results);
  const q = p.get('q');
  if (!q || gate) return;

  const params: Record<string, string> = { limit: '20' };
  for (const k of FILTERS) if (p.get(k)) params[k] = p.get(k)!;
  const tbody = h('tbody');
  const table = h(
    'table',
    { class: 'data' },
    h('caption', {}, `Facilities matching "${q}"`),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Facility'), h('th', { scope: 'col' }, 'Registry ID'), h('th', { scope: 'col' }, 'Address'), h('th', { scope: 'col' }, 'Score'), h('th', { scope: 'col' }, 'Enforcement'))),
    tbody,
  );
  const more = h('button', { type: 'button', class: 'secondary' }, 'More results');
  const status = h('p', { role: 'status' });
  let shown = 0;
  const load = async (cursor: string | null) => {
    status.textContent = 'Searching…';
    more.disabled = true;
    const r = await getJson<SearchPage>(`/api/v1/search${query({ ...params, cursor })}`);
    if (!r.ok) {
      status.textContent = '';
      return void results.append(failureNotice(r, 'search by name'));
    }
    const { items, next } = pageOf(r.data);
    for (const f of items) tbody.append(row(f));
    shown += items.length;
    status.textContent = shown === 0 ? `No facility matches "${q}".` : `${matchCount(r.data)} match; ${shown} shown${next ? ', more available' : ''}.`;
    more.hidden = !next;
    more.disabled = false;
    more.onclick = () => void load(next);
  };
  more.hidden = true;
  const exports = downloads('/api/v1/search', { ...params, limit: '100' }, 'search', 'search');
  put(results, status, scrollingTable(table), more, h('p', { class: 'hint' }, 'Downloads hold the first 100 matches.'), exports);
  await load(null);
  if (shown === 0) table.hidden = exports.hidden = true;
}
