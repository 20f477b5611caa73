import { describe, expect, it } from 'bun:test';
import { ERROR_CODES, ERROR_STATUS, type ErrorCode } from '../../src/errors';
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

describe('error codes in the document come from the one table (src/errors.ts)', () => {
  const codesOf = (response: any): string[] => deref(doc, deref(doc, response).content['application/json'].schema).properties.error.properties.code.enum;

  it('ErrorEnvelope.code is the closed enum of every code, in table order', () => {
    expect(doc.components.schemas.ErrorEnvelope.properties.error.properties.code.enum).toEqual(ERROR_CODES);
  });

  it.each(operations.map((o) => [`${o.method.toUpperCase()} ${o.path}`, o] as const))('%s: each error status lists only codes of that status', (_name, { op }) => {
    const errors = Object.entries<any>(op.responses).filter(([status]) => /^[45]/.test(status));
    expect(errors.length).toBeGreaterThan(0);
    for (const [status, response] of errors) {
      const codes = codesOf(response);
      expect(codes.length).toBeGreaterThan(0);
      for (const code of codes) expect(ERROR_STATUS[code as ErrorCode] as number).toBe(Number(status));
    }
  });

  it.each([
    // [path, method, statuses the API-key pipeline and the tier table allow]
    ['/api/v1/facility/{registry_id}', 'get', ['304', '401', '402', '404', '422', '429', '500', '503']], // every tier may call it: no 403; Free runs out: 402; 422 a bad include; 304 to a matching If-None-Match
    ['/api/v1/area', 'get', ['304', '401', '403', '422', '429', '500', '503']], // Free may not call it, so no 402
    ['/api/v1/portfolio', 'post', ['400', '401', '403', '413', '422', '429', '500', '503']],
    ['/api/v1/facility/{registry_id}/report', 'post', ['401', '403', '404', '412', '429', '500', '503']], // 412 to a matching If-None-Match
  ])('%s %s declares exactly the outcomes its pipeline can give', (path, method, statuses) => {
    const op = apiOperations.find((o) => o.path === path && o.method === method)!.op;
    expect(Object.keys(op.responses).filter((s) => s !== '200' && s !== 'default').sort()).toEqual([...statuses].sort());
  });
});

describe('answers any operation can give are on the document', () => {
  const codesOf = (response: any): string[] => deref(doc, deref(doc, response).content['application/json'].schema).properties.error.properties.code.enum;

  it.each(operations.filter((o) => o.op.requestBody).map((o) => [`${o.method.toUpperCase()} ${o.path}`, o] as const))('%s takes a body, so declares 413 PAYLOAD_TOO_LARGE', (_name, { op }) => {
    expect(codesOf(op.responses['413'])).toEqual(['PAYLOAD_TOO_LARGE']);
  });

  it.each(operations.filter((o) => o.op.responses['400']).map((o) => [`${o.method.toUpperCase()} ${o.path}`, o] as const))('%s: its 400 lists INVALID_REQUEST (a target that is no URL, refused before routing)', (_name, { op }) => {
    expect(codesOf(op.responses['400'])).toContain('INVALID_REQUEST');
  });
});

describe('conditional requests and compression are documented', () => {
  const op = (path: string, method: string) => apiOperations.find((o) => o.path === path && o.method === method)!.op;
  const headerNames = (r: any) => Object.keys(r.headers ?? {});

  it.each(['/api/v1/facility/{registry_id}', '/api/v1/facility/{registry_id}/history', '/api/v1/area', '/api/v1/search'])(
    'GET %s takes If-None-Match, sends ETag, and answers 304 with ETag and the quota headers (it is counted)',
    (path) => {
      const get = op(path, 'get');
      expect(get.parameters.map((p: any) => p.name)).toContain('If-None-Match');
      expect(headerNames(get.responses['200'])).toEqual(expect.arrayContaining(['ETag', 'Cache-Control']));
      expect(headerNames(get.responses['304'])).toEqual(expect.arrayContaining(['ETag', 'Cache-Control', 'X-RateLimit-Remaining']));
      expect(get.responses['304'].content).toBeUndefined();
    },
  );

  it.each(['/api/v1/facility/{registry_id}/report', '/api/v1/site-report'])('POST %s takes If-None-Match and declares its 412', (path) => {
    const post = op(path, 'post');
    expect(post.parameters.map((p: any) => p.name)).toContain('If-None-Match');
    expect(Object.keys(post.responses)).toContain('412');
    expect(headerNames(post.responses['200'])).toContain('ETag');
  });

  it('list answers document Vary and Content-Encoding; the lookup, never compressed, does not', () => {
    expect(headerNames(op('/api/v1/area', 'get').responses['200'])).toEqual(expect.arrayContaining(['Vary', 'Content-Encoding']));
    expect(headerNames(op('/api/v1/facility/{registry_id}', 'get').responses['200'])).not.toContain('Content-Encoding');
  });
});
