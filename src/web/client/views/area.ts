import { getJson, query } from '../api';
import { field, h, notice, put } from '../dom';
import { usMap, type MapDot } from '../map/us-map';
import { routeHref, type Route } from '../router';
import { BANDS, bandRange, NOT_ENOUGH_DATA_BAND, type Band } from '../score-band';
import { keyPlan } from '../plan';
import { downloads, enforcementText, failureNotice, loading, needKey, planGate, scoreBadge, viewHeading } from './common';
import { sortableTable } from './sortable-table';
import { scrollingTable } from './table-cue';

type Item = { registry_id: string; fac_name: string; overall_score: number; active_enforcement: boolean; distance_miles: number; data_sufficient?: boolean; lat?: number; lng?: number };
type Feature = { geometry?: { type: string; coordinates: [number, number] } | null; properties: Item };
type FeatureCollection = { type: 'FeatureCollection'; features: Feature[] };
type Envelope = { data?: { facilities?: Item[] } };

const LIMIT = 500;
const MAX_RADIUS = 25;

/** The facilities of an area answer, with coordinates when it came as GeoJSON. */
function itemsOf(body: FeatureCollection | Envelope): { items: Item[]; located: boolean } {
  if ((body as FeatureCollection).type === 'FeatureCollection') {
    const items = (body as FeatureCollection).features.map((f) => ({ ...f.properties, lng: f.geometry?.coordinates[0], lat: f.geometry?.coordinates[1] }));
    return { items, located: true };
  }
  return { items: (body as Envelope).data?.facilities ?? [], located: false };
}

/** The dot colours: the bands, and "Not enough data" when a dot has it. */
function legend(unjudged: boolean): HTMLElement {
  const item = (band: Band, words: string) => h('li', {}, h('span', { class: `swatch band-${band.cls}`, 'aria-hidden': 'true' }), words);
  return h('ul', { class: 'legend', 'aria-label': 'Dot colours' }, ...BANDS.map((b, i) => item(b.band, `${b.band.label} (${bandRange(i)})`)), unjudged ? item(NOT_ENOUGH_DATA_BAND, NOT_ENOUGH_DATA_BAND.label) : null);
}

/** An older server's items have no data_sufficient: enough, as the facility page reads it. */
const sufficient = (i: Item) => i.data_sufficient !== false;

type Place = { lat: number; lng: number; located_by: string; label: string };

/** Centre from a typed ZIP, "City, ST" or street address (located offline by the server; not counted). */
async function locate(place: string, out: HTMLElement): Promise<{ lat: number; lng: number; label: string } | null> {
  put(out, loading(`"${place}"`));
  const r = await getJson<Place>(`/api/v1/area/place${query({ q: place })}`);
  if (!r.ok) {
    put(out, r.status === 404 ? notice(r.message, 'warn') : failureNotice(r, 'finding a place by address (use coordinates instead)'));
    return null;
  }
  put(out);
  return { lat: r.data.lat, lng: r.data.lng, label: r.data.label };
}

/** Facilities within a radius: map (dots by score band, zoomed to the circle), sortable table, downloads. */
export async function areaView(main: HTMLElement, route: Route): Promise<void> {
  const p = route.params;
  const inputs = {
    place: h('input', { type: 'text', name: 'place', autocomplete: 'off', value: p.get('place') ?? '', placeholder: 'Houston, TX' }),
    lat: h('input', { type: 'number', name: 'lat', step: 'any', min: -90, max: 90, value: p.get('lat') ?? '' }),
    lng: h('input', { type: 'number', name: 'lng', step: 'any', min: -180, max: 180, value: p.get('lng') ?? '' }),
    r: h('input', { type: 'number', name: 'radius', step: 'any', min: 0.1, max: MAX_RADIUS, required: true, value: p.get('r') ?? '5' }),
  };
  const status = h('div', { 'aria-live': 'polite' });
  const form = h(
    'form',
    { class: 'stack', 'aria-label': 'Area search' },
    h('fieldset', {}, h('legend', {}, 'Centre: a place or coordinates'), field('City and state, ZIP or street address', inputs.place, 'A city or ZIP centres on its middle; a street address on the facility filed there.'), h('div', { class: 'row' }, field('Latitude', inputs.lat), field('Longitude', inputs.lng))),
    field(`Radius in miles (up to ${MAX_RADIUS})`, inputs.r),
    h('button', { type: 'submit' }, 'Show facilities'),
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const place = inputs.place.value.trim();
    const next = { r: inputs.r.value, lat: inputs.lat.value, lng: inputs.lng.value, place: '' as string, near: '' };
    if (place && (!next.lat || !next.lng || place !== (p.get('place') ?? ''))) {
      const at = await locate(place, status);
      if (!at) return;
      Object.assign(next, { lat: at.lat.toFixed(5), lng: at.lng.toFixed(5), place, near: at.label });
    }
    if (!next.lat || !next.lng) return put(status, notice('Enter an address, or both latitude and longitude.', 'warn'));
    location.hash = routeHref('area', next);
  });
  const results = h('div', { class: 'results' });
  const gate = needKey('The area map') ?? planGate(await keyPlan(), 'area', 'The area map');
  put(main, viewHeading('Facilities in an area'), gate ?? form, status, results);
  if (gate) return;
  const lat = Number(p.get('lat'));
  const lng = Number(p.get('lng'));
  const radius = Number(p.get('r') ?? 5);
  if (!p.get('lat') || !p.get('lng') || needKey('The area map')) return;

  put(results, loading('facilities'));
  const params = { lat: String(lat), lng: String(lng), radius_miles: String(radius), sort: 'distance', limit: String(LIMIT) };
  let r = await getJson<FeatureCollection | Envelope>(`/api/v1/area${query({ ...params, format: 'geojson' })}`, { accept: 'application/geo+json', envelope: false });
  // A server without the GeoJSON form refuses `format` (not counted): ask for the plain list.
  if (!r.ok && (r.status === 422 || r.status === 406)) r = await getJson<Envelope>(`/api/v1/area${query(params)}`, { envelope: false });
  if (!r.ok) return put(results, failureNotice(r, 'area searches'));
  const { items, located } = itemsOf(r.data);
  const near = p.get('near');
  const where = `${radius} miles of ${near ? `${near}: ${lat}, ${lng}` : `${lat}, ${lng}`}`;
  const dots: MapDot[] = items.filter((i) => typeof i.lat === 'number' && typeof i.lng === 'number').map((i) => ({ id: i.registry_id, name: i.fac_name, score: i.overall_score, sufficient: sufficient(i), lat: i.lat!, lng: i.lng! }));
  const siteReportAt = (la: number, ln: number) => routeHref('site-report', { lat: la.toFixed(5), lng: ln.toFixed(5) });
  const map = usMap({ center: { lat, lng }, radiusMiles: radius, dots, label: `Map: ${items.length} facilities within ${where}, coloured by score`, onPick: (la, ln) => void (location.hash = siteReportAt(la, ln)) });
  const offMap = dots.length - map.drawn;
  const zoom = h('button', { type: 'button', class: 'secondary', 'aria-pressed': 'false' }, 'Show the whole country');
  zoom.addEventListener('click', () => {
    const whole = zoom.getAttribute('aria-pressed') !== 'true';
    zoom.setAttribute('aria-pressed', String(whole));
    map.showWhole(whole);
  });
  put(
    results,
    h('p', { role: 'status', class: 'area-summary' }, `${items.length} ${items.length === 1 ? 'facility' : 'facilities'} within ${where}${items.length >= LIMIT ? ` (the ${LIMIT} nearest)` : ''}.`),
    h('figure', { class: 'map-figure' }, map.svg, h('figcaption', {}, legend(!items.every(sufficient)), zoom)),
    h('p', { class: 'hint' }, 'Click the map for a site report at that point, or ', h('a', { href: siteReportAt(lat, lng) }, 'make one at the centre'), ' (Platform plan and above).'),
    located ? null : notice('This server does not offer the GeoJSON form of the area search yet, so facilities cannot be placed on the map; the table lists them.', 'info'),
    offMap > 0 ? notice(`${offMap} ${offMap === 1 ? 'facility lies' : 'facilities lie'} outside the map's US insets; the table lists them.`, 'info') : null,
    downloads('/api/v1/area', params, 'area', 'area'),
    items.length
      ? scrollingTable(
          sortableTable(
            `Facilities within ${radius} miles`,
            [
              { label: 'Facility', value: (i) => i.fac_name, cell: (i) => h('a', { href: routeHref('facility', {}, i.registry_id) }, i.fac_name) },
              { label: 'Score', value: (i) => i.overall_score, cell: (i) => scoreBadge(i.overall_score, sufficient(i)), numeric: true },
              { label: 'Distance (miles)', value: (i) => i.distance_miles, cell: (i) => i.distance_miles.toFixed(2), numeric: true },
              { label: 'Enforcement', value: (i) => (i.active_enforcement ? 0 : 1), cell: (i) => enforcementText(i.active_enforcement) },
            ],
            items,
            2,
          ),
        )
      : null,
  );
}
