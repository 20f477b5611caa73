import { getJson, query } from '../api';
import { field, h, notice, put } from '../dom';
import { routeHref } from '../router';
import { failureNotice, scoreBadge } from './common';
import { changesBlock } from './watchlist-changes';

export type Summary = { id: string; name: string; registry_id_count: number; rule: { type: string; min_points?: number } | null; webhook_url: string | null };
type Watched = { registry_id: string; fac_name: string | null; overall_score: number | null; active_enforcement: boolean | null; data_sufficient?: boolean | null; last_change: { as_of: string; kind: string; overall_score: number | null; previous_score: number | null } | null };
type FacilityPage = { facilities: Watched[]; total: number; next_cursor: string | null };

/** "changed 2026-10-08: 80 → 52" / "removed 2026-10-08" / "added 2026-10-01" / "no change on record". */
function changeText(c: Watched['last_change']): string {
  if (!c) return 'no change on record';
  const scores = c.kind === 'changed' && c.previous_score !== null && c.overall_score !== null && c.previous_score !== c.overall_score ? `: score ${c.previous_score} → ${c.overall_score}` : '';
  return `${c.kind} ${c.as_of}${scores}`;
}

/** Facilities shown per page of a list (the API's most per page). */
const IDS_PER_PAGE = 100;

export function ruleText(rule: Summary['rule']): string {
  if (!rule || rule.type === 'any_change') return 'any change';
  if (rule.type === 'score_dropped') return `score dropped by ${rule.min_points} points or more`;
  return rule.type.replace(/_/g, ' ');
}

const countText = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'facility' : 'facilities'}`;

/** Registry IDs typed or pasted: digits split by spaces, commas, semicolons or lines. */
export function typedIds(text: string): { ids: string[]; bad: string[] } {
  const words = text.split(/[\s,;]+/).filter(Boolean);
  return { ids: words.filter((w) => /^[0-9]{12}$/.test(w)), bad: words.filter((w) => !/^[0-9]{12}$/.test(w)) };
}

/** One watchlist: rename, delete, its IDs page by page (add, remove), and its changes. */
export function watchlistPanel(list: Summary, index: number, autoChanges: boolean, onDeleted: () => void): HTMLElement {
  const path = `/api/v1/watchlists/${encodeURIComponent(list.id)}`;
  const headingId = `wl-${index}`;
  const heading = h('h3', { id: headingId }, list.name);
  const meta = h('p', { class: 'muted wl-meta' });
  const said = h('div', { 'aria-live': 'polite' });
  const showMeta = () => (meta.textContent = `${countText(list.registry_id_count)} · alerts on ${ruleText(list.rule)}${list.webhook_url ? ' · webhook set' : ''}`);
  showMeta();

  const patch = async (body: Record<string, unknown>, what: string): Promise<boolean> => {
    const r = await getJson<Summary & { registry_ids: string[] }>(path, { method: 'PATCH', body });
    if (!r.ok) return put(said, failureNotice(r, what)), false;
    Object.assign(list, { name: r.data.name, registry_id_count: r.data.registry_id_count ?? r.data.registry_ids.length });
    heading.textContent = list.name;
    addForm.setAttribute('aria-label', `Add IDs to ${list.name}`);
    showMeta();
    return true;
  };

  // Rename: an inline form in place of the buttons.
  const actions = h('div', { class: 'row wl-actions' });
  const renameButton = h('button', { type: 'button', class: 'secondary' }, 'Rename');
  const deleteButton = h('button', { type: 'button', class: 'secondary' }, 'Delete');
  const buttons = () => put(actions, renameButton, deleteButton);
  renameButton.addEventListener('click', () => {
    const input = h('input', { type: 'text', name: 'name', required: true, maxlength: 200, value: list.name });
    const form = h('form', { class: 'row', 'aria-label': `Rename ${list.name}` }, field('New name', input), h('button', { type: 'submit' }, 'Save name'), h('button', { type: 'button', class: 'secondary', onclick: buttons }, 'Cancel'));
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      if (await patch({ name: input.value.trim() }, 'renaming watchlists')) buttons();
    });
    put(actions, form);
    input.focus();
  });
  // Delete asks once more, in the page (no browser dialog).
  deleteButton.addEventListener('click', () => {
    const yes = h('button', { type: 'button' }, 'Delete this list');
    yes.addEventListener('click', async () => {
      const r = await getJson(path, { method: 'DELETE' });
      if (!r.ok) return put(said, failureNotice(r, 'deleting watchlists'));
      onDeleted();
    });
    put(actions, h('span', {}, `Delete “${list.name}” and its pending webhook deliveries? `), yes, ' ', h('button', { type: 'button', class: 'secondary', onclick: buttons }, 'Keep it'));
  });
  buttons();

  // The IDs, a page at a time, each with its Remove button; and a form to add more.
  const idRows = h('ul', { class: 'wl-ids' });
  const more = h('button', { type: 'button', class: 'secondary', hidden: true }, 'More facilities');
  let cursor: string | null = null;
  const loadIds = async (from: string | null) => {
    const r = await getJson<FacilityPage>(`${path}/facilities${query({ limit: IDS_PER_PAGE, cursor: from })}`);
    if (!r.ok) return put(said, failureNotice(r, 'watchlist facilities'));
    if (from === null) idRows.replaceChildren();
    for (const f of r.data.facilities) {
      const id = f.registry_id;
      const remove = h('button', { type: 'button', class: 'secondary small', 'aria-label': `Remove ${id}` }, 'Remove');
      remove.addEventListener('click', async () => {
        const whole = await getJson<{ registry_ids: string[] }>(path);
        if (!whole.ok) return put(said, failureNotice(whole, 'watchlist IDs'));
        if (await patch({ registry_ids: whole.data.registry_ids.filter((x) => x !== id) }, 'changing watchlist IDs')) {
          put(said, notice(`Removed ${id}.`));
          void loadIds(null);
        }
      });
      idRows.append(
        h('li', { class: 'wl-facility', 'data-registry-id': id },
          f.fac_name ? h('a', { href: routeHref('facility', {}, id) }, f.fac_name) : h('span', { class: 'muted' }, 'Not in the current release'),
          ' ', h('span', { class: 'muted' }, id), ' ',
          f.overall_score === null ? null : scoreBadge(f.overall_score, f.data_sufficient !== false), ' ',
          h('span', { class: 'wl-change' }, changeText(f.last_change)), ' ', remove),
      );
    }
    cursor = r.data.next_cursor;
    more.hidden = cursor === null;
  };
  more.addEventListener('click', () => void loadIds(cursor));
  const addInput = h('input', { type: 'text', name: 'add_ids', autocomplete: 'off', inputmode: 'numeric' });
  const addForm = h('form', { class: 'row', 'aria-label': `Add IDs to ${list.name}` }, field('Add Registry IDs', addInput, 'Separated by spaces or commas.'), h('button', { type: 'submit' }, 'Add'));
  addForm.addEventListener('submit', async (e) => {
    e.preventDefault();
    const { ids, bad } = typedIds(addInput.value);
    if (bad.length > 0) return put(said, notice(`Not a Registry ID (12 digits): ${bad.slice(0, 3).join(', ')}.`, 'warn'));
    if (ids.length === 0) return;
    const whole = await getJson<{ registry_ids: string[] }>(path);
    if (!whole.ok) return put(said, failureNotice(whole, 'watchlist IDs'));
    if (await patch({ registry_ids: [...new Set([...whole.data.registry_ids, ...ids])] }, 'changing watchlist IDs')) {
      addInput.value = '';
      put(said, notice(`Added ${ids.length} ${ids.length === 1 ? 'ID' : 'IDs'}.`));
      void loadIds(null);
    }
  });
  const ids = h('details', { class: 'wl-ids-box' }, h('summary', {}, 'Facilities: names, scores, latest change (one call per 100)'), idRows, more, addForm);
  ids.addEventListener('toggle', () => void (ids.open && loadIds(null)), { once: true });

  return h('section', { class: 'panel watchlist', 'aria-labelledby': headingId, 'data-id': list.id }, heading, meta, actions, said, ids, changesBlock(list.id, index, autoChanges));
}
