import { getJson, onQuota, type Quota } from './api';
import { fmtInt, h, put } from './dom';
import { forgetKey, readKey, saveKey } from './key';
import { covers, type Plan } from './plan';

type Status = { dataset?: { dataset_name?: string; as_of?: string; facility_count?: number; fictitious?: boolean } };

/** The key box: a password field and "Use key" without a key; the key's remaining calls and "Forget" with one. */
export function keyBox(onChange: () => void): HTMLElement {
  const box = h('div', { class: 'key-box' });
  const quota = h('span', { class: 'quota', 'aria-live': 'polite' });
  onQuota((q: Quota) => {
    if (q.scope === 'month' && readKey()) quota.textContent = `${fmtInt(q.remaining)} of ${fmtInt(q.limit)} calls left this month.`;
  });
  const draw = () => {
    const key = readKey();
    if (key) {
      const forget = h('button', { type: 'button', class: 'secondary' }, 'Forget key');
      forget.addEventListener('click', () => {
        forgetKey();
        quota.textContent = '';
        draw();
        onChange();
      });
      put(box, h("span", {}, `Using the API key ending ${key.slice(-4)}. `), quota, " ", forget);
      return;
    }
    const input = h('input', { type: 'password', id: 'api-key', name: 'api-key', autocomplete: 'off', spellcheck: 'false', required: true });
    const form = h(
      'form',
      { class: 'key-form', 'aria-label': 'API key' },
      h('label', { for: 'api-key' }, 'API key'),
      input,
      h('button', { type: 'submit' }, 'Use key'),
      h('small', { class: 'hint', id: 'api-key-hint' }, 'Kept in this browser tab only (never in a link or cookie).'),
    );
    input.setAttribute('aria-describedby', 'api-key-hint');
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const value = input.value.trim();
      if (!value) return;
      saveKey(value);
      draw();
      onChange();
    });
    put(box, form);
  };
  draw();
  return box;
}

/** One line on the dataset from /api/v1/status (public, not counted); a loud note when it is fictitious. */
export async function datasetLine(out: HTMLElement): Promise<void> {
  const r = await getJson<Status>('/api/v1/status', { keyed: false });
  if (!r.ok || !r.data.dataset) return put(out, 'Dataset information is not available.');
  const d = r.data.dataset;
  // The sample's own name says "FICTITIOUS … not EPA data" too: the notice is said once, in our words.
  if (d.fictitious) {
    out.title = d.dataset_name ?? '';
    return put(out, h('strong', { class: 'fictitious' }, 'Fictitious sample data, not EPA records: '), `${fmtInt(d.facility_count ?? 0)} invented facilities, as of ${d.as_of ?? 'unknown'}.`);
  }
  put(out, `${d.dataset_name ?? 'Dataset'}: ${fmtInt(d.facility_count ?? 0)} facilities, as of ${d.as_of ?? 'unknown'}.`);
}

export const NAV: [string, string][] = [
  ['lookup', 'Address lookup'],
  ['search', 'Search'],
  ['area', 'Area map'],
  ['site-report', 'Site report'],
  ['watchlists', 'Watchlists'],
];

/** The API endpoint a view needs; a view the key's plan does not cover leaves the navigation. */
const NEEDS: Record<string, string> = { search: 'search', area: 'area', 'site-report': 'site_report', watchlists: 'watchlists' };

/** The main navigation; the current view's link carries aria-current. */
export function navBar(): { nav: HTMLElement; mark: (view: string) => void; limit: (plan: Plan | null) => void } {
  const links = NAV.map(([view, label]) => h('a', { href: `#/${view}`, 'data-view': view }, label));
  const items = links.map((a) => h('li', {}, a));
  const nav = h('nav', { 'aria-label': 'Main' }, h('ul', {}, ...items));
  return {
    nav,
    mark: (view) => links.forEach((a) => (a.dataset.view === view ? a.setAttribute('aria-current', 'page') : a.removeAttribute('aria-current'))),
    limit: (plan) => links.forEach((a, i) => (items[i]!.hidden = !covers(plan, NEEDS[a.dataset.view!] ?? 'facility'))),
  };
}
