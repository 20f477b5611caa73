import { getJson, query } from '../api';
import { field, h, notice, put } from '../dom';
import { readKey } from '../key';
import { covers, keyPlan } from '../plan';
import { routeHref, type Route } from '../router';
import { enforcementText, failureNotice, loading, viewHeading } from './common';

type Preview = {
  fac_name: string;
  fac_city: string;
  fac_state: string;
  overall_score: number;
  active_enforcement: boolean;
  score_components?: { redacted?: boolean; message?: string };
};

const DEMO_PER_HOUR = 5;

/** What each plan adds, in plain words (docs/web.md keeps the same list). */
function unlocks(): HTMLElement {
  return h(
    'section',
    { class: 'unlocks', 'aria-labelledby': 'unlocks-h' },
    h('h3', { id: 'unlocks-h' }, 'What an API key unlocks'),
    h(
      'ul',
      {},
      h('li', {}, h('strong', {}, 'Free: '), 'any facility by its EPA Registry ID: score and enforcement flag (10 lookups a month).'),
      h('li', {}, h('strong', {}, 'Starter: '), 'search by name, the score breakdown and why points were lost, industry peers, programs, score history, the area map with CSV and GeoJSON downloads, watchlists.'),
      h('li', {}, h('strong', {}, 'Platform and above: '), 'everything in Starter plus the PDF dossier of a facility and the site report of a property (records around an address, with a radius map and PDF).'),
    ),
  );
}

type Example = { address: string; registry_id: string; fac_name: string };

// Addresses of the data this server holds that the demo finds (public, spends no demo lookup): asked once.
let examples: Promise<Example[]> | null = null;
function exampleList(): Promise<Example[]> {
  return (examples ??= getJson<{ examples: Example[] }>('/api/v1/demo/examples', { keyed: false }).then((r) => (r.ok ? r.data.examples : [])));
}

const REGISTRY_ID = /^[0-9]{1,15}$/;

/** The Free plan's whole use: a facility by its EPA Registry ID, opened on the facility view. */
function idForm(): { form: HTMLFormElement; input: HTMLInputElement } {
  const input = h('input', { type: 'text', name: 'registry_id', inputmode: 'numeric', autocomplete: 'off', required: true, maxlength: 15, pattern: '[0-9]{1,15}' });
  const problem = h('div', { 'aria-live': 'polite' });
  const form = h(
    'form',
    // novalidate: the check below says what is wrong in the page's words, not in a browser bubble.
    { class: 'stack', 'aria-label': 'Look up by EPA Registry ID', novalidate: true },
    field('EPA Registry ID', input, readKey() ? 'Digits only; real IDs have 12.' : 'Digits only; real IDs have 12. Needs an API key (the Free plan covers 10 lookups a month).'),
    h('button', { type: 'submit' }, 'Open facility'),
    problem,
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const id = input.value.replace(/\s+/g, '');
    if (!REGISTRY_ID.test(id)) return put(problem, notice('A Registry ID is 1 to 15 digits, such as 110000350174.', 'warn'));
    location.hash = routeHref('facility', {}, id);
  });
  return { form, input };
}

let demoLeft: number | null = null;
// Answers already shown, by address: going back, or entering a key, redraws them without spending
// another of the 5 hourly demo lookups.
const shown = new Map<string, Awaited<ReturnType<typeof getJson<Preview>>>>();

function demoLeftText(): string {
  return demoLeft === null
    ? `The demo allows ${DEMO_PER_HOUR} lookups an hour from one network address.`
    : `${demoLeft} of ${DEMO_PER_HOUR} demo lookups left this hour.`;
}

/** The public demo: a street address in, the redacted preview out, no key needed. */
export async function lookupView(main: HTMLElement, route: Route): Promise<void> {
  const address = route.params.get('address') ?? '';
  const input = h('input', { type: 'text', name: 'address', autocomplete: 'street-address', required: true, maxlength: 200, value: address });
  const tries = h('p', { class: 'examples' });
  const byId = idForm();
  // The placeholders and the examples are real addresses and IDs of the data served, so they work.
  void exampleList().then((list) => {
    if (list.length === 0) return;
    input.placeholder = list[0]!.address;
    byId.input.placeholder = list[0]!.registry_id;
    put(tries, 'Try an address in this data: ', ...list.flatMap((x, i) => [i > 0 ? ' · ' : '', h('a', { href: routeHref('lookup', { address: x.address }) }, x.address)]));
  });
  const left = h('p', { class: 'demo-left', 'aria-live': 'polite' }, demoLeftText());
  const result = h('div', { class: 'result', 'aria-live': 'polite' });
  const form = h(
    'form',
    { class: 'stack', role: 'search', 'aria-label': 'Address lookup' },
    field('Street address', input, 'Street, city, state and ZIP of a US facility.'),
    h('button', { type: 'submit' }, 'Look up'),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    location.hash = routeHref('lookup', { address: input.value.trim() });
  });
  const plan = await keyPlan();
  put(
    main,
    viewHeading('Look up a facility by street address'),
    h('p', {}, 'Free demo, no key needed: the facility registered at an address, its compliance score (0–100, higher is better) and whether it had an enforcement action in the last 12 months or a significant violation being addressed.'),
    form,
    tries,
    left,
    result,
    h('section', { class: 'by-id', 'aria-labelledby': 'by-id-h' }, h('h3', { id: 'by-id-h' }, 'Open a facility by its EPA Registry ID'), byId.form),
    !readKey() ? unlocks() : covers(plan, 'search') ? h('p', {}, 'You have a key: ', h('a', { href: '#/search' }, 'search facilities by name'), '.') : null,
  );
  if (!address) return;

  put(result, loading('the facility'));
  const r = shown.get(address) ?? (await getJson<Preview>(`/api/v1/demo/facility${query({ address })}`, { keyed: false }));
  const remaining = Number(r.headers.get('x-ratelimit-remaining'));
  if (!shown.has(address) && r.headers.has('x-ratelimit-remaining') && Number.isFinite(remaining)) {
    demoLeft = remaining;
    left.textContent = demoLeftText();
  }
  if (r.ok || r.status === 404) shown.set(address, r);
  if (!r.ok) return put(result, failureNotice(r, 'the address lookup'));
  const f = r.data;
  put(
    result,
    h(
      'article',
      { class: 'card', 'aria-labelledby': 'demo-name' },
      h('h3', { id: 'demo-name' }, f.fac_name),
      h('p', {}, `${f.fac_city}, ${f.fac_state}`),
      // the preview carries no data completeness (docs/demo.md), so no band: a band would call a facility with no data "Good"
      h('p', { class: 'score-line' }, 'Compliance score: ', h('span', { class: 'score-badge band-none' }, h('strong', {}, String(f.overall_score)), ' of 100')),
      h('p', { class: 'muted' }, 'The band, and whether the data is enough to judge, come with a lookup by key.'),
      h('p', {}, enforcementText(f.active_enforcement)),
      f.score_components?.redacted ? h('p', { class: 'notice notice-info redaction' }, f.score_components.message ?? 'Score components are not shown in the demo.') : null,
    ),
  );
}
