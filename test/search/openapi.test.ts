import { describe, expect, it } from 'bun:test';
import { json, makeWorld } from '../helpers';

const world = makeWorld();
const doc = await json(await world.call('/swagger/json'));
const op = (path: string, method: string) => doc.paths[path][method];
// Error responses are shared components (src/api/http/openapi-document.ts): read through the $ref.
const resolved = (r: any) => (r.$ref ? doc.components.responses[r.$ref.split('/').pop()] : r);
const schemaOf = (s: any) => (s.$ref ? doc.components.schemas[s.$ref.split('/').pop()] : s);

describe('OpenAPI: search and the export forms', () => {
  it('documents GET /api/v1/search with every query parameter, and its outcomes', () => {
    const search = op('/api/v1/search', 'get');
    const names = search.parameters.filter((p: any) => p.in === 'query').map((p: any) => p.name).sort();
    expect(names).toEqual(['active_enforcement', 'cursor', 'format', 'limit', 'max_score', 'min_score', 'naics', 'q', 'sort', 'state']);
    expect(Object.keys(search.responses).sort()).toEqual(['200', '304', '401', '403', '422', '429', '500', '503', 'default']);
    const data = schemaOf(schemaOf(search.responses['200'].content['application/json'].schema).properties.data);
    expect(Object.keys(data.properties)).toEqual(['facilities', 'total', 'total_capped', 'next_cursor']);
    expect(Object.keys(schemaOf(data.properties.facilities.items).properties)).toEqual(['registry_id', 'fac_name', 'overall_score', 'active_enforcement', 'fac_street', 'fac_city', 'fac_state', 'fac_zip', 'data_sufficient']);
  });

  it.each([
    ['/api/v1/area', 'get'],
    ['/api/v1/portfolio', 'post'],
    ['/api/v1/search', 'get'],
  ])('%s %s offers JSON, CSV and GeoJSON for 200, and JSON envelopes for errors (a 304 has no body)', (path, method) => {
    const responses = op(path, method).responses;
    expect(Object.keys(responses['200'].content)).toEqual(['application/json', 'text/csv', 'application/geo+json']);
    expect(responses['200'].headers['Content-Disposition']).toBeDefined();
    for (const [status, r] of Object.entries(responses) as [string, any][]) {
      if (status === '304') expect(resolved(r).content).toBeUndefined();
      else if (status !== '200') expect(Object.keys(resolved(r).content)).toEqual(['application/json']);
    }
  });
});
