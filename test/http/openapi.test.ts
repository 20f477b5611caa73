import { describe, expect, it } from 'bun:test';
import { json, makeWorld } from '../helpers';
import { deref } from '../support/openapi';

const world = makeWorld();
const doc = await json(await world.call('/swagger/json'));
const operations = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, ops]) =>
  Object.entries(ops).map(([method, op]) => ({ path, method, op })),
);
const apiOperations = operations.filter((o) => o.path.startsWith('/api/v1/'));

describe('OpenAPI document (/swagger/json)', () => {
  it('is OpenAPI 3 and declares the X-API-Key security scheme', () => {
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.components.securitySchemes.apiKey).toEqual({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
  });

  it('lists every /api/v1 route the app serves', () => {
    const served = world.app.routes.filter((r) => r.path.startsWith('/api/v1/')).map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:(\w+)/g, '{$1}')}`);
    const documented = apiOperations.map((o) => `${o.method} ${o.path}`);
    expect(served.length).toBeGreaterThan(1);
    for (const s of served) expect(documented).toContain(s);
  });

  it.each(apiOperations.map((o) => [`${o.method.toUpperCase()} ${o.path}`, o] as const))('%s has a summary, a success schema and an error schema', (_name, { op }) => {
    expect(op.summary?.length).toBeGreaterThan(0);
    const statuses = Object.keys(op.responses);
    const success = statuses.find((s) => s.startsWith('2'));
    expect(success).toBeDefined();
    expect(statuses.some((s) => /^[45]/.test(s))).toBe(true);
    for (const s of statuses) {
      const content = op.responses[s].content;
      if (content?.['application/json']) expect(content['application/json'].schema).toBeDefined();
    }
  });

  it('endpoints that take an API key say so, and public ones do not', () => {
    const byPath = (p: string, m: string) => apiOperations.find((o) => o.path === p && o.method === m)!.op;
    expect(byPath('/api/v1/facility/{registry_id}', 'get').security).toEqual([{ apiKey: [] }]);
    expect(byPath('/api/v1/status', 'get').security ?? []).toEqual([]);
  });

  it('carries examples for the facility record', () => {
    expect(JSON.stringify(doc)).toContain('990000914553');
    // on the facility operation itself, not only somewhere in the document (error and portfolio examples carry the ID too)
    const facility = apiOperations.find((o) => o.path === '/api/v1/facility/{registry_id}' && o.method === 'get')!.op;
    const record = deref(doc, facility.responses['200'].content['application/json'].schema).properties.data.properties;
    expect(record.registry_id.examples).toContain('990000914553');
    expect(record.fac_name.examples?.length).toBeGreaterThan(0);
    const param = facility.parameters.find((p: any) => p.in === 'path' && p.name === 'registry_id');
    expect(param.examples ?? [param.example]).toContain('990000914553');
  });
});

describe('state-store outages are documented', () => {
  it.each([
    ['/api/v1/facility/{registry_id}', 'get'],
    ['/api/v1/area', 'get'],
    ['/api/v1/portfolio', 'post'],
    ['/api/v1/facility/{registry_id}/report', 'post'],
  ])('%s declares 503 SERVICE_UNAVAILABLE (Redis unreachable)', (path, method) => {
    const op = apiOperations.find((o) => o.path === path && o.method === method)!.op;
    expect(Object.keys(op.responses)).toContain('503');
  });
});
