import { getJson } from '../api';
import { field, h, notice, put } from '../dom';
import { keyPlan } from '../plan';
import { failureNotice, loading, needKey, planGate, viewHeading } from './common';
import { typedIds, watchlistPanel, type Summary } from './watchlist-panel';

/** Lists whose changes are fetched at once (each fetch is a counted call); the rest behind a button. */
const AUTO_LISTS = 5;

const RULES: [string, string][] = [
  ['any_change', 'Any change'],
  ['score_dropped', 'Score dropped by at least…'],
  ['enforcement_started', 'Enforcement action started'],
  ['facility_removed', 'Facility removed from the data'],
];

/** The form that makes a list: name, IDs, rule (a webhook is set through the API). */
function createForm(onMade: (list: Summary) => void): HTMLElement {
  const name = h('input', { type: 'text', name: 'name', required: true, maxlength: 200 });
  const ids = h('input', { type: 'text', name: 'registry_ids', autocomplete: 'off', inputmode: 'numeric' });
  const rule = h('select', { name: 'rule' }, ...RULES.map(([v, label]) => h('option', { value: v }, label)));
  const points = h('input', { type: 'number', name: 'min_points', min: 1, max: 100, value: '5', disabled: true });
  rule.addEventListener('change', () => (points.disabled = rule.value !== 'score_dropped'));
  const said = h('div', { 'aria-live': 'polite' });
  const form = h(
    'form',
    { class: 'stack', 'aria-label': 'New watchlist' },
    field('Name', name),
    field('Registry IDs', ids, 'Separated by spaces or commas; more can be added later.'),
    h('div', { class: 'row' }, field('Alert on', rule), field('Points', points)),
    h('button', { type: 'submit' }, 'Create watchlist'),
    said,
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const typed = typedIds(ids.value);
    if (typed.bad.length > 0) return put(said, notice(`Not a Registry ID (12 digits): ${typed.bad.slice(0, 3).join(', ')}.`, 'warn'));
    const chosen = rule.value === 'score_dropped' ? { type: 'score_dropped', min_points: Number(points.value) } : { type: rule.value };
    const r = await getJson<Summary>('/api/v1/watchlists', { method: 'POST', body: { name: name.value.trim(), registry_ids: typed.ids, rule: chosen } });
    if (!r.ok) return put(said, failureNotice(r, 'creating watchlists'));
    name.value = '';
    ids.value = '';
    put(said, notice(`Created “${r.data.name}”.`));
    onMade(r.data);
  });
  return h('details', { class: 'panel new-watchlist' }, h('summary', {}, 'New watchlist'), form);
}

/** The account's watchlists (Starter+): make, rename, delete, edit IDs, and page through changes. */
export async function watchlistsView(main: HTMLElement): Promise<void> {
  const gate = needKey('Watchlists') ?? planGate(await keyPlan(), 'watchlists', 'Watchlists');
  if (gate) return put(main, viewHeading('Watchlists'), gate);
  put(main, viewHeading('Watchlists'), loading('your watchlists'));
  const r = await getJson<{ watchlists: Summary[]; total: number }>('/api/v1/watchlists');
  if (!r.ok) return put(main, viewHeading('Watchlists'), failureNotice(r, 'watchlists'));
  const panels = h('div', { class: 'watchlists' });
  const empty = h(
    'div',
    { class: 'notice notice-info wl-empty', role: 'status' },
    h('p', {}, h('strong', {}, 'No watchlists yet. '), 'A watchlist is a named set of facilities (by Registry ID) that this service checks at each new weekly release: when one of them changes the way you choose (any change, a score drop, a new enforcement action, removal), the change shows here and, if you set a webhook through the API, is sent to you.'),
    h('p', {}, 'Make one with “New watchlist” below: find Registry IDs with ', h('a', { href: '#/search' }, 'Search'), ' or the ', h('a', { href: '#/area' }, 'area map'), '.'),
  );
  let made = 0;
  const add = (list: Summary, auto: boolean) => {
    const panel = watchlistPanel(list, made++, auto, () => {
      panel.remove();
      empty.hidden = panels.childElementCount > 0;
    });
    panels.append(panel);
    empty.hidden = true;
  };
  r.data.watchlists.forEach((list, i) => add(list, i < AUTO_LISTS));
  empty.hidden = r.data.watchlists.length > 0;
  put(main, viewHeading('Watchlists'), empty, createForm((list) => add(list, true)), panels);
}
