import { describe, expect, it } from 'bun:test';
import { FORMATS, type ResponseForm } from '../../src/exports/format';
import { makeWorld } from '../helpers';
import { SEARCH_ROWS } from '../search/fixtures';

const world = makeWorld({ rows: SEARCH_ROWS });
const { key } = await world.keyFor('enterprise');
const post = (path: string, body: unknown) => (format: string) =>
  world.call(`${path}?format=${format}`, { key, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const get = (path: string) => (format: string) => world.call(`${path}&format=${format}`, { key });

/** Every route that offers forms, with the forms it offers (docs/api.md, "Export forms"). */
const LIST_FORMS: ResponseForm[] = ['json', 'csv', 'geojson'];
const ROUTES: [string, (format: string) => Promise<Response>, ResponseForm[]][] = [
  ['area', get('/api/v1/area?lat=41.08&lng=-81.52&radius_miles=5'), LIST_FORMS],
  ['search', get('/api/v1/search?q=plat'), LIST_FORMS],
  ['portfolio', post('/api/v1/portfolio', { registry_ids: ['990000000106'] }), LIST_FORMS],
  ['site-report', post('/api/v1/site-report', { lat: 41.08, lng: -81.52 }), ['json', 'csv', 'geojson', 'pdf']],
];

describe('every form a route offers is answered as the format registry declares it', () => {
  const cases = ROUTES.flatMap(([name, call, forms]) => forms.map((form) => [name, form, call] as const));
  it.each(cases)('%s as %s: the registry\'s Content-Type, and an attachment named with its extension unless JSON', async (_name, form, call) => {
    const res = await call(form);
    expect(res.status).toBe(200);
    const declared = FORMATS[form];
    if (form === 'json') expect(res.headers.get('content-type')).toStartWith(declared.mediaType);
    else {
      expect(res.headers.get('content-type')).toBe(declared.contentType);
      expect(res.headers.get('content-disposition')).toEndWith(`.${declared.extension}"`);
    }
  });
});
