import './styles.css';
import { keyPlan } from './plan';
import { parseRoute, UNREADABLE, type Route } from './router';
import { h, notice } from './dom';
import { datasetLine, keyBox, NAV, navBar } from './shell';
import { facilityView } from './views/facility';
import { lookupView } from './views/lookup';
import { searchView } from './views/search';
import { watchlistsView } from './views/watchlists';

const VIEWS: Record<string, (main: HTMLElement, route: Route) => Promise<void>> = {
  lookup: lookupView,
  search: searchView,
  facility: facilityView,
  // Loaded when first opened: the map's code and outlines are most of the page's bytes.
  area: async (main, route) => (await import('./views/area')).areaView(main, route),
  'site-report': async (main, route) => (await import('./views/site-report')).siteReportView(main, route),
  watchlists: (main) => watchlistsView(main),
  [UNREADABLE]: async (main) =>
    void main.append(
      h('h2', { tabindex: -1, class: 'view-heading' }, 'Page not found'),
      notice('This address cannot be read: the part after # has a broken %-escape. Check the link, or start again from the lookup.', 'warn'),
      h('p', {}, h('a', { href: '#/lookup' }, 'Go to the address lookup')),
    ),
};

const main = document.getElementById('main')!;
const { nav, mark, limit } = navBar();
document.getElementById('nav-slot')!.replaceWith(nav);
let shownView = '';
let renders = 0;

async function render(): Promise<void> {
  const route = parseRoute(location.hash) ?? (shownView ? null : parseRoute(''));
  if (!route) return; // an in-page anchor such as the skip link: the view stays
  const view = VIEWS[route.view] ? route.view : 'lookup';
  mark(view === 'facility' ? '' : view);
  // Views the key's plan does not cover leave the navigation (GET /api/v1/plan, asked once per key).
  void keyPlan().then(limit);
  document.title = `${view === UNREADABLE ? 'Page not found' : (NAV.find(([v]) => v === view)?.[1] ?? view[0]!.toUpperCase() + view.slice(1))} · Facility compliance scores`;
  // Each render draws into its own element: a slower earlier render that finishes late writes into
  // a detached one and cannot overwrite this.
  const seq = ++renders;
  const host = document.createElement('div');
  main.replaceChildren(host);
  await VIEWS[view]!(host, route);
  if (seq !== renders) return;
  // A new view moves focus to its heading (screen readers hear where they are); a re-query of the
  // same view does not, and neither does the first (the page starts at its top, skip link first).
  if (shownView && view !== shownView) host.querySelector<HTMLElement>('.view-heading')?.focus();
  shownView = view;
  main.dataset.ready = `${view}:${seq}`;
}

document.getElementById('key-slot')!.replaceWith(keyBox(() => void render()));
window.addEventListener('hashchange', () => void render());
// "First view ready" for scripts/bench-web.ts: the first view drawn and the dataset line filled.
void Promise.all([render(), datasetLine(document.getElementById('dataset')!)]).then(() => performance.mark('first-view-ready'));
