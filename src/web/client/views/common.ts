import { getFile, query, saveBlob, type ApiResult } from '../api';
import { h, notice, put } from '../dom';
import { readKey } from '../key';
import { covers, LOWEST_PLAN, type Plan } from '../plan';
import { bandFor } from '../score-band';

/** The sentence for a failed call: the API's own message, or a plain one for a route this server lacks. */
export function failureNotice(r: Extract<ApiResult<unknown>, { ok: false }>, what: string): HTMLParagraphElement {
  if (r.missingRoute) return notice(`This server does not offer ${what} yet.`, 'info');
  return notice(r.message, r.status >= 500 || r.status === 0 ? 'error' : 'warn');
}

/** For a view that needs a key: null when there is one, else the sentence asking for it. */
export function needKey(what: string): HTMLElement | null {
  if (readKey()) return null;
  return h(
    'div',
    { class: 'needs-key' },
    notice(`${what} needs an API key. Enter yours above; it is kept in this browser tab only.`, 'info'),
    h('p', {}, 'No key? The ', h('a', { href: '#/lookup' }, 'address lookup'), ' works without one.'),
  );
}

/** Score with its band word and colour swatch: "72 Poor"; "72 Not enough data" in grey when the data cannot judge the facility. */
export function scoreBadge(score: number, sufficient = true): HTMLSpanElement {
  const band = bandFor(score, sufficient);
  return h('span', { class: `score-badge band-${band.cls}` }, h('strong', {}, String(score)), ' ', band.label);
}

/**
 * The enforcement flag in the words of what it means (docs/scoring.md): the data cannot tell an open
 * action from a closed one, so never "open". `basis` names the rule that fired, where the answer has it.
 */
export function enforcementText(active: boolean, basis?: string | null): HTMLSpanElement {
  if (!active) return h('span', { class: 'flag' }, 'No enforcement action in the last 12 months');
  const words =
    basis === 'snc_answered'
      ? 'Significant violation being addressed'
      : basis === 'recent_action'
        ? 'Enforcement action in the last 12 months'
        : 'Enforcement action in the last 12 months, or significant violation being addressed';
  return h('span', { class: 'flag flag-on' }, words);
}

/** The band label, or "Not enough data" when the data cannot judge the facility (data_completeness.sufficient false). */
export function bandLabel(score: number, sufficient = true): string {
  return bandFor(score, sufficient).label;
}

/** A view's heading, focusable so a route change can move focus to it. */
export function viewHeading(text: string): HTMLHeadingElement {
  return h('h2', { tabindex: -1, class: 'view-heading' }, text);
}

/** Busy text while a call runs. */
export function loading(what: string): HTMLParagraphElement {
  return h('p', { class: 'loading', role: 'status' }, `Loading ${what}…`);
}

/**
 * For a view or control the key's plan does not cover: the one line saying which plan does (the
 * API's own 403 wording), instead of a call that would answer 403. Null when the plan covers it.
 */
export function planGate(plan: Plan | null, endpoint: string, what: string): HTMLElement | null {
  if (covers(plan, endpoint)) return null;
  return notice(`${what} requires a ${LOWEST_PLAN[endpoint] ?? 'higher'} plan or above; this key is on the ${plan!.plan} plan.`, 'info');
}

/** CSV and GeoJSON buttons for a list endpoint (`format` on `path` with `params`); `stem` names a file the server leaves unnamed. */
export function downloads(path: string, params: Record<string, string>, stem: string, what: string): HTMLElement {
  const out = h('div', { 'aria-live': 'polite' });
  const button = (format: 'csv' | 'geojson', label: string) => {
    const b = h('button', { type: 'button', class: 'secondary' }, label);
    b.addEventListener('click', async () => {
      b.disabled = true;
      const r = await getFile(`${path}${query({ ...params, format })}`, { accept: format === 'csv' ? 'text/csv' : 'application/geo+json' });
      b.disabled = false;
      if (!r.ok) return put(out, failureNotice(r, `${what} downloads`));
      saveBlob(r.data.blob, r.data.filename === 'download' ? `${stem}.${format}` : r.data.filename);
      put(out, notice(`Saved ${r.data.filename}.`));
    });
    return b;
  };
  return h('div', { class: 'downloads' }, button('csv', 'Download CSV'), button('geojson', 'Download GeoJSON'), out);
}
