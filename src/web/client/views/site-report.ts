import { getFile, getJson, query, saveBlob } from '../api';
import { field, h, notice, put, uid } from '../dom';
import { parcelReach, radiusMap, type RadiusParcel } from '../map/radius-map';
import { routeHref, type Route } from '../router';
import { BANDS, bandRange, NOT_ENOUGH_DATA_BAND } from '../score-band';
import { keyPlan } from '../plan';
import { failureNotice, loading, needKey, planGate, viewHeading } from './common';
import { findingsTable, sourcesSection, summaryTable, unmappedSection, warningsSection, type Report } from './site-report-sections';
import { boundaryOf, keepParcel, keptParcel } from './site-parcel';

const FIELDS = ['address', 'lat', 'lng', 'zip', 'name'] as const;

/** The request body from the route's parameters (coordinates when both are there, the address, the parcel kept in this tab), or null without a site. */
function bodyOf(p: URLSearchParams, parcel: string | null): Record<string, unknown> | null {
  const lat = p.get('lat');
  const lng = p.get('lng');
  const body: Record<string, unknown> = {};
  if (lat && lng) Object.assign(body, { lat: Number(lat), lng: Number(lng) });
  for (const k of ['address', 'zip', 'name'] as const) if (p.get(k)) body[k] = p.get(k);
  if (parcel !== null) {
    const read = boundaryOf(parcel);
    if ('boundary' in read) body.boundary = read.boundary;
  }
  return body.lat !== undefined || body.address !== undefined || body.boundary !== undefined ? body : null;
}

/** The site's mark (a parcel's outline and centre) and the dot colours: the bands, and "Not enough data" when a dot has it. */
function legend(parcel: boolean, unjudged: boolean): HTMLElement {
  const swatch = (cls: string) => h('span', { class: `swatch ${cls}`, 'aria-hidden': 'true' });
  const site = parcel ? [h('li', {}, swatch('parcel-swatch'), 'The parcel'), h('li', {}, swatch('site-swatch'), "The parcel's centre")] : [h('li', {}, swatch('site-swatch'), 'The site')];
  return h('ul', { class: 'legend', 'aria-label': 'Map key' }, ...site, ...BANDS.map((b, i) => h('li', {}, swatch(`band-${b.band.cls}`), `${b.band.label} (${bandRange(i)})`)),
    unjudged ? h('li', {}, swatch(`band-${NOT_ENOUGH_DATA_BAND.cls}`), NOT_ENOUGH_DATA_BAND.label) : null);
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
  const parcel: RadiusParcel | null = s.boundary ? ((s.boundary.type === 'Polygon' ? [s.boundary.coordinates] : s.boundary.coordinates) as RadiusParcel) : null;
  // as on the PDF: a parcel's map reaches the largest distance from its boundary, from its centre
  const searched = Math.max(...r.summary.filter((x) => x.coverage !== 'not_searched').map((x) => x.search_distance_miles));
  const maxMiles = parcel ? Math.ceil((searched + parcelReach(s, parcel)) * 100) / 100 : searched;
  const named = s.name ?? s.address;
  const dots = r.findings.map((f, i) => ({ n: i + 1, id: f.registry_id, name: f.fac_name, score: f.overall_score, sufficient: f.data_sufficient !== false, miles: f.distance_miles, direction: f.direction, ...f.location }));
  const where = parcel ? 'the parcel' : 'the site';
  return [
    h('p', { role: 'status', class: 'area-summary' }, `${r.findings.length} ${r.findings.length === 1 ? 'facility' : 'facilities'} listed around ${named ? `${named} (${s.lat}, ${s.lng})` : `${s.lat}, ${s.lng}`}; data as of ${r.dataset.as_of}.`),
    warningsSection(r),
    s.located_by === 'coordinates' ? null : h('p', { class: 'muted' }, s.note),
    downloads(body),
    h('section', { class: 'panel', 'aria-labelledby': 'sr-summary-h' }, h('h3', { id: 'sr-summary-h' }, 'Summary by category and distance'), summaryTable(r)),
    h(
      'figure',
      { class: 'map-figure' },
      radiusMap(s, dots, maxMiles, `Radius map: ${r.findings.length} facilities around ${where}, coloured by score`, parcel),
      h('figcaption', {}, legend(parcel !== null, dots.some((d) => !d.sufficient)), parcel ? "North up; dots where the facilities are, around the parcel's centre; rings are miles from that centre, the table's distances are from the parcel's edge." : 'North up; dots at their true bearing and distance from the site.'),
    ),
    findingsTable(r),
    unmappedSection(r),
    sourcesSection(r),
    h('p', { class: 'muted disclaimer' }, 'A screening of EPA ECHO records around one property, not a Phase I Environmental Site Assessment: no site visit, interviews or historical sources, and most ASTM record sources are not searched.'),
  ];
}

/** The parcel field: GeoJSON pasted or read from a file; its problem (the page's or the API's 422) is said beside it. */
function parcelField(text: string): { el: HTMLElement; input: HTMLTextAreaElement; problem: (sentence: string | null) => void } {
  const id = uid('parcel');
  const input = h('textarea', { id, name: 'boundary', rows: 4, spellcheck: 'false', autocomplete: 'off', 'aria-describedby': `${id}-hint ${id}-problem` });
  input.value = text;
  const file = h('input', { type: 'file', id: `${id}-file`, accept: '.geojson,.json,application/geo+json,application/json' });
  const said = h('p', { id: `${id}-problem`, class: 'field-problem', role: 'alert' });
  const problem = (sentence: string | null) => {
    said.textContent = sentence ?? '';
    if (sentence) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
  };
  file.addEventListener('change', async () => {
    const picked = file.files?.[0];
    if (!picked) return;
    input.value = await picked.text();
    problem(null);
  });
  const el = h(
    'div',
    { class: 'field' },
    h('label', { for: id }, 'Parcel boundary (optional): GeoJSON'),
    input,
    h('small', { id: `${id}-hint`, class: 'hint' }, 'A Polygon or MultiPolygon, or a Feature or FeatureCollection holding one (WGS84, up to 2,000 vertices). Distances are then from its edge; kept in this browser tab only.'),
    h('label', { for: `${id}-file`, class: 'hint' }, 'Or pick a .geojson file: '),
    file,
    said,
  );
  return { el, input, problem };
}

/** A site report: address, coordinates or a parcel in; the summary, radius map, findings and sources out, with the PDF (Platform and above). */
export async function siteReportView(main: HTMLElement, route: Route): Promise<void> {
  const p = route.params;
  const parcelText = p.get('parcel') ? keptParcel(p.get('parcel')!) : null;
  const input = (name: (typeof FIELDS)[number], attrs: Record<string, string | number>) => h('input', { name, value: p.get(name) ?? '', autocomplete: 'off', ...attrs });
  const inputs = {
    address: input('address', { type: 'text', placeholder: 'street, city, state ZIP' }),
    lat: input('lat', { type: 'number', step: 'any', min: -90, max: 90 }),
    lng: input('lng', { type: 'number', step: 'any', min: -180, max: 180 }),
    zip: input('zip', { type: 'text', inputmode: 'numeric', pattern: '[0-9]{5}(-[0-9]{4})?' }),
    name: input('name', { type: 'text' }),
  };
  const parcel = parcelField(parcelText ?? '');
  const status = h('div', { 'aria-live': 'polite' });
  const form = h(
    'form',
    { class: 'stack', 'aria-label': 'Site report' },
    h(
      'fieldset',
      {},
      h('legend', {}, 'The property: an address, coordinates or a parcel'),
      field('Street address', inputs.address, 'Matched offline to the index; a ZIP-only match is approximate and says so.'),
      h('div', { class: 'row' }, field('Latitude', inputs.lat), field('Longitude', inputs.lng)),
      parcel.el,
    ),
    h('div', { class: 'row' }, field('ZIP (optional)', inputs.zip, 'Where facilities without coordinates are looked for.'), field('Property name (optional)', inputs.name)),
    h('button', { type: 'submit' }, 'Make the site report'),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const next: Record<string, string> = Object.fromEntries(FIELDS.map((k) => [k, inputs[k].value.trim()]));
    const text = parcel.input.value.trim();
    if (text) {
      const read = boundaryOf(text);
      if ('problem' in read) return parcel.problem(read.problem);
      next.parcel = keepParcel(text);
    }
    parcel.problem(null);
    if (!next.address && !(next.lat && next.lng) && !next.parcel) return put(status, notice('Enter an address, both latitude and longitude, or a parcel.', 'warn'));
    location.hash = routeHref('site-report', next);
  });
  const out = h('div', { class: 'results' });
  const gate = needKey('The site report') ?? planGate(await keyPlan(), 'site_report', 'The site report');
  put(main, viewHeading('Site report'), gate ?? form, status, out);
  if (gate) return;
  if (p.get('parcel') && parcelText === null) return put(out, notice('This link names a parcel this browser tab does not hold: paste it or pick its file again.', 'warn'));
  if (parcelText !== null) {
    const read = boundaryOf(parcelText);
    if ('problem' in read) return parcel.problem(read.problem);
  }
  const body = bodyOf(p, parcelText);
  if (!body) return;
  put(out, loading('the site report'));
  const r = await getJson<Report>('/api/v1/site-report', { method: 'POST', body });
  if (!r.ok) {
    // the API names the field of a bad value: a parcel's is said beside the parcel
    if (body.boundary !== undefined && /\bboundary\b/.test(r.message)) {
      put(out);
      return parcel.problem(r.message);
    }
    return put(out, failureNotice(r, 'site reports'));
  }
  put(out, ...results(r.data, body));
}
