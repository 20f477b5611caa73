import { getJson, query } from '../api';
import { h, notice, put } from '../dom';
import { routeHref } from '../router';
import { failureNotice, loading, needKey, viewHeading } from './common';

type Watchlist = { id: string; name: string; registry_ids?: string[]; rule?: unknown; webhook_url?: string | null; created_at?: string };
type Change = Record<string, unknown> & { registry_id?: string; fac_name?: string; as_of?: string };

/** Changes shown per list, and lists whose changes are fetched at once (each fetch is a counted call). */
const SHOWN_CHANGES = 20;
const AUTO_LISTS = 5;

function listOf<T>(d: unknown, ...names: string[]): T[] {
  if (Array.isArray(d)) return d as T[];
  for (const n of names) {
    const v = (d as Record<string, unknown> | null)?.[n];
    if (Array.isArray(v)) return v as T[];
  }
  return [];
}

const countText = (n: number) => `${n} ${n === 1 ? 'facility' : 'facilities'}`;

function ruleText(rule: unknown): string {
  if (!rule) return 'any change';
  if (typeof rule === 'string') return rule.replace(/_/g, ' ');
  const o = rule as Record<string, unknown>;
  const kind = String(o.type ?? o.kind ?? 'rule').replace(/_/g, ' ');
  const n = o.min_points ?? o.points;
  return n === undefined ? kind : `${kind} by ${n} points or more`;
}

function changeSentence(c: Change): string {
  const kind = String(c.event ?? c.kind ?? c.type ?? c.change_type ?? 'change').replace(/^facility\./, '').replace(/_/g, ' ');
  const from = c.previous_score ?? (c.change as Record<string, unknown> | undefined)?.previous_score;
  const to = c.overall_score ?? c.score ?? c.new_score;
  const scores = typeof from === 'number' && typeof to === 'number' ? `: ${from} → ${to}` : typeof to === 'number' ? `: score ${to}` : '';
  return `${kind}${scores}`;
}

async function changes(list: Watchlist, out: HTMLElement): Promise<void> {
  put(out, loading('recent changes'));
  const r = await getJson<unknown>(`/api/v1/watchlists/${encodeURIComponent(list.id)}/changes${query({})}`);
  if (!r.ok) return put(out, failureNotice(r, 'watchlist changes'));
  const items = listOf<Change>(r.data, 'changes', 'items', 'events');
  const asOf = (r.data as { as_of?: string } | null)?.as_of;
  const release = asOf ? ` in the release of ${asOf}` : '';
  if (items.length === 0) return put(out, h('p', {}, `No changes for this list${release}.`));
  put(
    out,
    h('p', {}, `Changes${release}:`),
    h(
      'ul',
      { class: 'changes' },
      ...items.slice(0, SHOWN_CHANGES).map((c) =>
        h(
          'li',
          {},
          c.as_of ? h('span', { class: 'muted' }, `${c.as_of} `) : null,
          c.registry_id ? h('a', { href: routeHref('facility', {}, String(c.registry_id)) }, String(c.fac_name ?? c.registry_id)) : null,
          ` ${changeSentence(c)}`,
        ),
      ),
    ),
    items.length > SHOWN_CHANGES ? h('p', { class: 'muted' }, `${items.length - SHOWN_CHANGES} older changes not shown.`) : null,
  );
}

/** The account's watchlists and their recent changes (Starter+; Free sees the API's 403 sentence). */
export async function watchlistsView(main: HTMLElement): Promise<void> {
  const gate = needKey('Watchlists');
  if (gate) return put(main, viewHeading('Watchlists'), gate);
  put(main, viewHeading('Watchlists'), loading('your watchlists'));
  const r = await getJson<unknown>('/api/v1/watchlists');
  if (!r.ok) return put(main, viewHeading('Watchlists'), failureNotice(r, 'watchlists'));
  const lists = listOf<Watchlist>(r.data, 'watchlists', 'items', 'results');
  if (lists.length === 0) return put(main, viewHeading('Watchlists'), notice('This account has no watchlists yet. Create one through the API (POST /api/v1/watchlists).', 'info'));
  put(
    main,
    viewHeading('Watchlists'),
    ...lists.map((list, i) => {
      const out = h('div', { 'aria-live': 'polite' });
      const id = `wl-${i}`;
      const section = h(
        'section',
        { class: 'panel', 'aria-labelledby': id },
        h('h3', { id }, list.name),
        h('p', { class: 'muted' }, `${countText(list.registry_ids?.length ?? 0)} · alerts on ${ruleText(list.rule)}${list.webhook_url ? ' · webhook set' : ''}`),
        out,
      );
      if (i < AUTO_LISTS) void changes(list, out);
      else {
        const b = h('button', { type: 'button', class: 'secondary' }, 'Show recent changes');
        b.addEventListener('click', () => void changes(list, out));
        out.append(b);
      }
      return section;
    }),
  );
}
