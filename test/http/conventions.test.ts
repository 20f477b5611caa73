import { describe, expect, it } from 'bun:test';
import { json, makeWorld } from '../helpers';

const world = makeWorld({ config: { corsOrigins: ['https://app.example.test'] } });
const starter = await world.keyFor('starter');
const LOOKUP = '/api/v1/facility/990000000001';

describe('X-Request-Id from the caller', () => {
  it.each(['trace-42', 'A.b_c-9', 'x'.repeat(64)])('a well-formed id (%p) is echoed in the header and meta', async (id) => {
    const res = await world.call(LOOKUP, { key: starter.key, headers: { 'x-request-id': id } });
    expect(res.headers.get('x-request-id')).toBe(id);
    expect((await json(res)).meta.request_id).toBe(id);
  });

  it('an error echoes it too', async () => {
    const res = await world.call(LOOKUP, { headers: { 'x-request-id': 'client-7' } });
    expect(res.status).toBe(401);
    expect((await json(res)).meta.request_id).toBe('client-7');
  });

  it.each([
    ['65 characters', 'x'.repeat(65)],
    ['a space', 'has space'],
    ['a quote', 'a"b'],
    ['a slash', 'a/b'],
    ['non-ASCII', 'café'],
    ['empty', ''],
  ])('an id with %s is replaced by one of ours', async (_what, id) => {
    const res = await world.call(LOOKUP, { key: starter.key, headers: { 'x-request-id': id } });
    const body = await json(res);
    expect(body.meta.request_id).toMatch(/^req_[0-9A-Z]{20}$/);
    expect(res.headers.get('x-request-id')).toBe(body.meta.request_id);
  });
});

describe('WWW-Authenticate', () => {
  it.each([
    ['no key', {}],
    ['a wrong key', { 'x-api-key': 'fcs_live_wrong' }],
    ['a Bearer header', { authorization: 'Bearer abc' }],
  ])('a data endpoint 401 for %s names the X-API-Key challenge', async (_what, headers) => {
    const res = await world.call(LOOKUP, { headers });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('ApiKey realm="facility-score", header="X-API-Key"');
  });

  it('an account endpoint 401 names the Bearer challenge', async () => {
    const res = await world.call('/api/v1/account');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toStartWith('Bearer realm=');
  });
});

describe('CORS', () => {
  const preflight = (path: string, origin: string, method = 'GET') =>
    world.call(path, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'x-api-key' } });

  it('the public demo and status answer any origin', async () => {
    for (const path of ['/api/v1/status', '/api/v1/demo/facility?address=x']) {
      const res = await world.call(path, { headers: { origin: 'https://anyone.example.test' } });
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-expose-headers')).toContain('X-Request-Id');
    }
  });

  it('a keyed endpoint answers a configured origin, by name, varying on Origin', async () => {
    const res = await world.call(LOOKUP, { key: starter.key, headers: { origin: 'https://app.example.test' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example.test');
    expect(res.headers.get('vary')).toContain('Origin');
    expect(res.headers.get('access-control-expose-headers')).toContain('X-RateLimit-Remaining');
  });

  it('a keyed endpoint gives no CORS header to an origin not configured (the browser refuses to read it)', async () => {
    const res = await world.call(LOOKUP, { key: starter.key, headers: { origin: 'https://evil.example.test' } });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('no origin is allowed on keyed endpoints by default', async () => {
    const plain = makeWorld();
    const { key } = await plain.keyFor('starter');
    const res = await plain.call(LOOKUP, { key, headers: { origin: 'https://app.example.test' } });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('a preflight from a configured origin gets 204 with the methods and headers, and is not counted', async () => {
    const before = await world.store.monthlyUsage(starter.accountId, world.clock());
    const res = await preflight(LOOKUP, 'https://app.example.test');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example.test');
    expect(res.headers.get('access-control-allow-methods')).toContain('GET');
    expect(res.headers.get('access-control-allow-headers')).toContain('X-API-Key');
    expect(await world.store.monthlyUsage(starter.accountId, world.clock())).toBe(before);
  });

  it('a preflight from another origin gets 204 without Allow-Origin', async () => {
    const res = await preflight('/api/v1/portfolio', 'https://evil.example.test', 'POST');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('a preflight on the demo allows any origin', async () => {
    const res = await preflight('/api/v1/demo/facility', 'https://anyone.example.test');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  // Every route of the app with its own method, the page and the docs aside (same origin, not API).
  const apiRoutes = () => world.app.routes.filter((r) => r.path.startsWith('/api/') && r.method !== 'OPTIONS').map((r) => [r.method, r.path.replace(/:[a-z_]+/g, (p) => (p === ':id' ? 'wl_0123456789abcdef' : p === ':event_id' ? `msg_${'0'.repeat(32)}` : '990000000001'))] as const);

  it('a preflight from a configured origin allows the method of every route of the API (PATCH and DELETE on watchlists too)', async () => {
    const routes = apiRoutes();
    expect(routes.map(([m]) => m)).toContain('PATCH');
    expect(routes.map(([m]) => m)).toContain('DELETE');
    for (const [method, path] of routes) {
      const res = await preflight(path, 'https://app.example.test', method);
      const allowed = (res.headers.get('access-control-allow-methods') ?? '').split(/,\s*/);
      expect([method, path, res.status, allowed.includes(method)]).toEqual([method, path, 204, true]);
    }
  });

  it('every keyed answer varies on Origin, whichever origin asked or none; public answers do not', async () => {
    for (const origin of ['https://app.example.test', 'https://evil.example.test', null]) {
      const headers: Record<string, string> = origin ? { origin } : {};
      for (const path of [LOOKUP, '/api/v1/watchlists', '/api/v1/facility/abc', '/api/v1/area?lat=1&lng=1&radius_miles=1&format=csv']) {
        const res = await world.call(path, { key: starter.key, headers });
        expect([path, origin, (res.headers.get('vary') ?? '').split(/,\s*/).includes('Origin')]).toEqual([path, origin, true]);
      }
      const pub = await world.call('/api/v1/status', { headers });
      expect(pub.headers.get('vary')).toBeNull();
    }
    // Without a configured origin no keyed answer depends on the origin.
    const plain = makeWorld();
    const { key } = await plain.keyFor('starter');
    expect((await plain.call(LOOKUP, { key })).headers.get('vary')).toBeNull();
  });

  it('the setting is read from --cors-origins / FCS_CORS_ORIGINS and refuses a non-origin', async () => {
    const { configFrom } = await import('../../src/cli/options');
    expect(configFrom({ FCS_CORS_ORIGINS: 'https://a.test, http://localhost:3000' }, {}).corsOrigins).toEqual(['https://a.test', 'http://localhost:3000']);
    expect(configFrom({ FCS_CORS_ORIGINS: 'https://a.test' }, { 'cors-origins': 'https://b.test' }).corsOrigins).toEqual(['https://b.test']);
    expect(() => configFrom({ FCS_CORS_ORIGINS: 'https://a.test/path' }, {})).toThrow(/corsOrigins/);
  });
});

describe('entry points', () => {
  it('GET / asked for JSON points to the docs, the OpenAPI document and the status (browsers get the web page)', async () => {
    const res = await world.call('/', { headers: { accept: 'application/json' } });
    expect(res.status).toBe(200);
    expect((await json(res)).data).toMatchObject({ docs: '/swagger', openapi: '/swagger/json', status: '/api/v1/status' });
  });

  it('/swagger/ (trailing slash) serves the docs page too', async () => {
    const page = await world.call('/swagger/');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('/swagger/assets/boot.js');
  });
});
