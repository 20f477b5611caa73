import { getJson, query } from '../api';
import { field, h, put } from '../dom';
import { routeHref } from '../router';
import { failureNotice, loading } from './common';

export type Change = {
  type: string;
  registry_id: string;
  fac_name: string | null;
  as_of: string;
  overall_score: number | null;
  previous_score: number | null;
};
type Changes = { since: string | null; as_of: string; changes: Change[]; total: number };
type Status = { releases?: { as_of: string }[] };

/** Changes per page; the answer holds them all (one counted call), the page pages through it. */
export const CHANGES_PER_PAGE = 20;

/**
 * Most severe first: an enforcement action that started, then score drops by points lost, then
 * facilities gone from the data, then rises; ties newest release first, then by registry ID.
 */
export function severity(c: Change): [number, number] {
  if (c.type === 'facility.enforcement_started') return [0, 0];
  if (c.type === 'facility.removed') return [2, 0];
  const drop = (c.previous_score ?? 0) - (c.overall_score ?? 0);
  return drop > 0 ? [1, -drop] : [3, -drop];
}

const ORDERS: Record<string, { label: string; compare: (a: Change, b: Change) => number }> = {
  severity: {
    label: 'Most severe first',
    compare: (a, b) => {
      const [x, y] = [severity(a), severity(b)];
      return x[0] - y[0] || x[1] - y[1] || b.as_of.localeCompare(a.as_of) || a.registry_id.localeCompare(b.registry_id);
    },
  },
  newest: { label: 'Newest release first', compare: (a, b) => b.as_of.localeCompare(a.as_of) || a.registry_id.localeCompare(b.registry_id) },
  name: { label: 'By facility name', compare: (a, b) => (a.fac_name ?? a.registry_id).localeCompare(b.fac_name ?? b.registry_id) },
};

function sentence(c: Change): string {
  if (c.type === 'facility.enforcement_started') return `enforcement action started${c.overall_score === null ? '' : `; score ${c.overall_score}`}`;
  if (c.type === 'facility.removed') return 'no longer in the data';
  const from = c.previous_score;
  const to = c.overall_score;
  if (from === null || to === null) return 'score changed';
  return `score ${from} → ${to} (${to - from > 0 ? '+' : ''}${to - from})`;
}

let releases: Promise<string[]> | null = null;
/** The as-of dates of the releases served (public status, not counted), oldest first. */
function releaseDates(): Promise<string[]> {
  return (releases ??= getJson<Status>('/api/v1/status', { keyed: false }).then((r) => (r.ok ? (r.data.releases ?? []).map((x) => x.as_of) : [])));
}

/**
 * A list's matching changes since a chosen release, sorted and paged in the page. `auto`: fetched
 * at once; else behind a button (each fetch is a counted call).
 */
export function changesBlock(listId: string, index: number, auto: boolean): HTMLElement {
  const out = h('div', { class: 'changes-body', 'aria-live': 'polite' });
  const since = h('select', { name: 'since' }, h('option', { value: '' }, 'The newest release'));
  const order = h('select', { name: 'order' }, ...Object.entries(ORDERS).map(([k, o]) => h('option', { value: k }, o.label)));
  const controls = h('div', { class: 'row changes-controls' }, field('Changes in', since), field('Order', order));
  let all: Change[] = [];
  let asOf = '';
  let page = 0;
  void releaseDates().then((dates) => {
    for (const d of dates.slice(0, -1).reverse()) since.append(h('option', { value: d }, `Releases after ${d}`));
  });

  const draw = () => {
    if (all.length === 0) return put(out, h('p', {}, `No changes for this list${since.value ? ` after ${since.value}` : ` in the release of ${asOf}`}.`));
    const sorted = [...all].sort(ORDERS[order.value]!.compare);
    const pages = Math.ceil(sorted.length / CHANGES_PER_PAGE);
    page = Math.min(page, pages - 1);
    const from = page * CHANGES_PER_PAGE;
    const shown = sorted.slice(from, from + CHANGES_PER_PAGE);
    const prev = h('button', { type: 'button', class: 'secondary', disabled: page === 0 }, 'Previous');
    const next = h('button', { type: 'button', class: 'secondary', disabled: page >= pages - 1 }, 'Next');
    prev.addEventListener('click', () => ((page -= 1), draw()));
    next.addEventListener('click', () => ((page += 1), draw()));
    put(
      out,
      h('p', { class: 'changes-range' }, `Changes ${from + 1}–${from + shown.length} of ${sorted.length}`),
      h(
        'ol',
        { class: 'changes', start: from + 1 },
        ...shown.map((c) => h('li', { 'data-type': c.type }, h('span', { class: 'muted' }, `${c.as_of} `), h('a', { href: routeHref('facility', {}, c.registry_id) }, c.fac_name ?? c.registry_id), ` ${sentence(c)}`)),
      ),
      pages > 1 ? h('div', { class: 'pager' }, prev, ` Page ${page + 1} of ${pages} `, next) : null,
    );
  };

  const load = async () => {
    put(out, loading('the changes'));
    const r = await getJson<Changes>(`/api/v1/watchlists/${encodeURIComponent(listId)}/changes${query({ since: since.value })}`);
    if (!r.ok) return put(out, failureNotice(r, 'watchlist changes'));
    all = r.data.changes;
    asOf = r.data.as_of;
    page = 0;
    draw();
  };
  since.addEventListener('change', () => void load());
  order.addEventListener('change', () => ((page = 0), draw()));
  if (auto) void load();
  else {
    const show = h('button', { type: 'button', class: 'secondary' }, 'Show changes');
    show.addEventListener('click', () => void load());
    put(out, show, h('small', { class: 'hint' }, ' Counts one call.'));
  }
  const id = `changes-h-${index}`;
  return h('section', { class: 'watch-changes', 'aria-labelledby': id }, h('h4', { id }, 'Changes'), controls, out);
}
