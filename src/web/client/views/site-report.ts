import { getFile, getJson, query, saveBlob } from '../api';
import { field, h, notice, put } from '../dom';
import { radiusMap } from '../map/radius-map';
import { routeHref, type Route } from '../router';
import { BANDS, bandRange } from '../score-band';
import { keyPlan } from '../plan';
import { failureNotice, loading, needKey, planGate, viewHeading } from './common';
import { findingsTable, sourcesSection, summaryTable, unmappedSection, type Report } from './site-report-sections';

const FIELDS = ['address', 'lat', 'lng', 'zip', 'name'] as const;

/** The request body from the route's parameters: coordinates when both are there, else the address. */
function bodyOf(p: URLSearchParams): Record<string, unknown> | null {
  const lat = p.get('lat');
  const lng = p.get('lng');
  const body: Record<string, unknown> = {};
  if (lat && lng) Object.assign(body, { lat: Number(lat), lng: Number(lng) });
  for (const k of ['address', 'zip', 'name'] as const) if (p.get(k)) body[k] = p.get(k);
  return body.lat !== undefined || body.address !== undefined ? body : null;
}

function legend(): HTMLElement {
  return h('ul', { class: 'legend', 'aria-label': 'Dot colours' }, h('li', {}, h('span', { class: 'swatch site-swatch', 'aria-hidden': 'true' }), 'The site'), ...BANDS.map((b, i) => h('li', {}, h('span', { class: `swatch band-${b.band.cls}`, 'aria-hidden': 'true' }), `${b.band.label} (${bandRange(i)})`)));
}

/** PDF, CSV and GeoJSON of the same request (each a counted call). */
function downloads(body: Record<string, unknown>): HTMLElement {
  const out = h('div', { 'aria-live': 'polite' });
  const button = (format: 'pdf' | 'csv' | 'geojson', label: string, accept: string) => {
    const b = h('button', { type: 'button', class: format === 'pdf' ? '' : 'secondary' }, label);
    b.addEventListener('click', async () => {
      b.disabled = true;
      put(out, loading(label.toLowerCase().replace('download ', 'the ')));
      const r = await getFile(`/api/v1/site-report${query({ format })}`, { method: 'POST', accept, body });
      b.disabled = false;
      if (!r.ok) return put(out, failureNotice(r, 'site reports'));
      saveBlob(r.data.blob, r.data.filename === 'download' ? `site-report.${format}` : r.data.filename);
      put(out, notice(`Saved ${r.data.filename}.`));
    });
    return b;
  };
  return h('div', { class: 'downloads' }, button('pdf', 'Download PDF report', 'application/pdf'), button('csv', 'Download CSV', 'text/csv'), button('geojson', 'Download GeoJSON', 'application/geo+json'), out);
}

function results(r: Report, body: Record<string, unknown>): (Node | null)[] {
  const s = r.site;
  const searched = r.summary.filter((x) => x.coverage !== 'not_searched').map((x) => x.search_distance_miles);
  const maxMiles = Math.max(...searched);
  const named = s.name ?? s.address;
  const dots = r.findings.map((f, i) => ({ n: i + 1, id: f.registry_id, name: f.fac_name, score: f.overall_score, miles: f.distance_miles, bearing: f.bearing_degrees, direction: f.direction }));
  return [
    h('p', { role: 'status', class: 'area-summary' }, `${r.findings.length} ${r.findings.length === 1 ? 'facility' : 'facilities'} listed around ${named ? `${named} (${s.lat}, ${s.lng})` : `${s.lat}, ${s.lng}`}; data as of ${r.dataset.as_of}.`),
    r.dataset.fictitious ? notice('Fictitious sample data: every facility here is invented, not an EPA record.', 'warn') : null,
    s.approximate ? notice(s.note, 'warn') : s.located_by === 'coordinates' ? null : h('p', { class: 'muted' }, s.note),
    downloads(body),
    h('section', { class: 'panel', 'aria-labelledby': 'sr-summary-h' }, h('h3', { id: 'sr-summary-h' }, 'Summary by category and distance'), summaryTable(r)),
    h('figure', { class: 'map-figure' }, radiusMap(dots, maxMiles, `Radius map: ${r.findings.length} facilities within ${maxMiles} miles of the site, coloured by score`), h('figcaption', {}, legend(), 'North up; dots at their true bearing and distance from the site.')),
    findingsTable(r),
    unmappedSection(r),
    sourcesSection(r),
    h('p', { class: 'muted disclaimer' }, 'A screening of EPA ECHO records around one point, not a Phase I Environmental Site Assessment: no site visit, interviews or historical sources, and most ASTM record sources are not searched.'),
  ];
}

/** A site report: address or coordinates in, the summary, radius map, findings and sources out, with the PDF (Platform and above). */
export async function siteReportView(main: HTMLElement, route: Route): Promise<void> {
  const p = route.params;
  const input = (name: (typeof FIELDS)[number], attrs: Record<string, string | number>) => h('input', { name, value: p.get(name) ?? '', autocomplete: 'off', ...attrs });
  const inputs = {
    address: input('address', { type: 'text', placeholder: 'street, city, state ZIP' }),
    lat: input('lat', { type: 'number', step: 'any', min: -90, max: 90 }),
    lng: input('lng', { type: 'number', step: 'any', min: -180, max: 180 }),
    zip: input('zip', { type: 'text', inputmode: 'numeric', pattern: '[0-9]{5}(-[0-9]{4})?' }),
    name: input('name', { type: 'text' }),
  };
  const status = h('div', { 'aria-live': 'polite' });
  const form = h(
    'form',
    { class: 'stack', 'aria-label': 'Site report' },
    h('fieldset', {}, h('legend', {}, 'The property: an address or coordinates'), field('Street address', inputs.address, 'Matched offline to the index; a ZIP-only match is approximate and says so.'), h('div', { class: 'row' }, field('Latitude', inputs.lat), field('Longitude', inputs.lng))),
    h('div', { class: 'row' }, field('ZIP (optional)', inputs.zip, 'Where facilities without coordinates are looked for.'), field('Property name (optional)', inputs.name)),
    h('button', { type: 'submit' }, 'Make the site report'),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const next = Object.fromEntries(FIELDS.map((k) => [k, inputs[k].value.trim()]));
    if (!next.address && !(next.lat && next.lng)) return put(status, notice('Enter an address, or both latitude and longitude.', 'warn'));
    location.hash = routeHref('site-report', next);
  });
  const out = h('div', { class: 'results' });
  const gate = needKey('The site report') ?? planGate(await keyPlan(), 'site_report', 'The site report');
  put(main, viewHeading('Site report'), gate ?? form, status, out);
  const body = bodyOf(p);
  if (gate || !body) return;
  put(out, loading('the site report'));
  const r = await getJson<Report>('/api/v1/site-report', { method: 'POST', body });
  if (!r.ok) return put(out, failureNotice(r, 'site reports'));
  put(out, ...results(r.data, body));
}
