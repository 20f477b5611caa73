import { beforeAll, describe, expect, it } from 'bun:test';
import type OpenAPIBackend from 'openapi-backend';
import { json, makeWorld } from '../helpers';
import { answerDrift, closedValidator } from '../support/openapi';

// Every answer below is checked against the served OpenAPI document by openapi-backend (Ajv), with
// every object schema closed (test/support/openapi.ts): a field, a header or a status the server
// sends and the document does not declare fails here. test/contract runs the HTTP contract suites
// through the same check.
const world = makeWorld({ config: { webhookAllow: ['hooks.example.com'] } });
const keys = {
  free: (await world.keyFor('free')).key,
  starter: (await world.keyFor('starter')).key,
  platform: (await world.keyFor('platform')).key,
  freeAtCap: (await world.keyFor('free', { monthlyLimit: 1 })).key,
  starterAtCap: (await world.keyFor('starter', { monthlyLimit: 1 })).key,
};

let api: OpenAPIBackend;
beforeAll(async () => {
  api = await closedValidator(await json(await world.call('/swagger/json')));
});

type Call = [what: string, method: string, path: string, opts?: { key?: string; body?: unknown; accept?: string }];

/** Calls the server and returns the problems the document finds with its answer (none when they agree). */
async function drift([what, method, path, o = {}]: Call): Promise<string[]> {
  const headers: Record<string, string> = {};
  if (o.body !== undefined) headers['content-type'] = 'application/json';
  if (o.accept) headers.accept = o.accept;
  const res = await world.call(path, { method, key: o.key, headers, body: o.body === undefined ? undefined : JSON.stringify(o.body) });
  const problems = await answerDrift(api, { method, url: new URL(path, 'http://x'), headers }, res);
  return (problems ?? [`${method} ${path}: not in the document`]).map((p) => `${what}: ${p}`);
}

const ID = '990000000003';
describe('the check itself', () => {
  it('finds a body field the document does not name and a header it does not declare', async () => {
    const op = api.getOperation('getApiV1Status')!;
    const body = await json(await world.call('/api/v1/status'));
    expect(api.validator.validateResponse(body, op, 200).errors ?? []).toEqual([]);
    expect(api.validator.validateResponse({ ...body, extra: 1 }, op, 200).errors?.[0]?.params).toEqual({ additionalProperty: 'extra' });
    expect(api.validator.validateResponseHeaders({ 'x-request-id': 'req_1', 'x-made-up': '1' }, op, { statusCode: 200, setMatchType: 'subset' as never }).errors).not.toBeNull();
  });

  it('the document declares every query parameter the server honours: format on area, portfolio and search', async () => {
    const doc = await json(await world.call('/swagger/json'));
    for (const [path, method] of [['/api/v1/area', 'get'], ['/api/v1/portfolio', 'post'], ['/api/v1/search', 'get']] as const) {
      expect([path, doc.paths[path][method].parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)]).toEqual([path, expect.arrayContaining(['query:format'])]);
    }
  });
});

describe('answers agree with the OpenAPI document (closed schemas, declared headers and statuses)', () => {
  it('the public and probe routes', async () => {
    const calls: Call[] = [
      ['healthz', 'GET', '/healthz'],
      ['readyz', 'GET', '/readyz'],
      ['status', 'GET', '/api/v1/status'],
      ['demo examples', 'GET', '/api/v1/demo/examples'],
      ['demo not found', 'GET', '/api/v1/demo/facility?address=1%20Nowhere%20Ln%2C%20Houston%2C%20TX%2077002'],
      ['demo bad query', 'GET', '/api/v1/demo/facility'],
    ];
    expect((await Promise.all(calls.map(drift))).flat()).toEqual([]);
  });

  it('lookups, lists and their export forms', async () => {
    const s = keys.starter;
    const calls: Call[] = [
      ['facility', 'GET', `/api/v1/facility/${ID}`, { key: s }],
      ['facility with evidence', 'GET', `/api/v1/facility/${ID}?include=evidence`, { key: s }],
      ['facility, Free', 'GET', `/api/v1/facility/${ID}`, { key: keys.free }],
      ['facility unknown', 'GET', '/api/v1/facility/990000000099', { key: s }],
      ['facility without key', 'GET', `/api/v1/facility/${ID}`],
      ['history', 'GET', `/api/v1/facility/${ID}/history`, { key: s }],
      ['history, Free', 'GET', `/api/v1/facility/${ID}/history`, { key: keys.free }],
      ['place', 'GET', '/api/v1/area/place?q=77002', { key: s }],
      ['place unknown', 'GET', '/api/v1/area/place?q=Xyzzyville%2C%20TX', { key: s }],
      ['area', 'GET', '/api/v1/area?lat=29.76&lng=-95.37&radius_miles=5', { key: s }],
      ['area csv', 'GET', '/api/v1/area?lat=29.76&lng=-95.37&radius_miles=5&format=csv', { key: s }],
      ['area bad', 'GET', '/api/v1/area?lat=x&lng=-95.37&radius_miles=5', { key: s }],
      ['portfolio', 'POST', '/api/v1/portfolio', { key: s, body: { registry_ids: [ID, '990000000099'] } }],
      ['portfolio csv', 'POST', '/api/v1/portfolio?format=csv', { key: s, body: { registry_ids: [ID, '990000000099'] } }],
      ['portfolio unknown field', 'POST', '/api/v1/portfolio', { key: s, body: { registry_ids: [ID], foo: 1 } }],
      ['search', 'GET', '/api/v1/search?q=gulf', { key: s }],
      ['search csv, a next page', 'GET', '/api/v1/search?q=9&limit=1&format=csv', { key: s }],
      ['plan', 'GET', '/api/v1/plan', { key: s }],
    ];
    expect((await Promise.all(calls.map(drift))).flat()).toEqual([]);
  });

  it('over the monthly cap: 402 (Free) and 429 (Starter) with the quota headers and Retry-After', async () => {
    await world.call(`/api/v1/facility/${ID}`, { key: keys.freeAtCap });
    await world.call(`/api/v1/facility/${ID}`, { key: keys.starterAtCap });
    const calls: Call[] = [
      ['402', 'GET', `/api/v1/facility/${ID}`, { key: keys.freeAtCap }],
      ['429', 'GET', `/api/v1/facility/${ID}`, { key: keys.starterAtCap }],
    ];
    expect((await Promise.all(calls.map(drift))).flat()).toEqual([]);
  });

  it('watchlists, from creation to deletion', async () => {
    const s = keys.starter;
    const made = await json(await world.call('/api/v1/watchlists', { method: 'POST', key: s, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'n', registry_ids: [ID] }) }));
    const wl = `/api/v1/watchlists/${made.data.id}`;
    const calls: Call[] = [
      ['create', 'POST', '/api/v1/watchlists', { key: s, body: { name: 'm', registry_ids: [ID], webhook_url: 'https://hooks.example.com/x' } }],
      ['create, unknown field', 'POST', '/api/v1/watchlists', { key: s, body: { name: 'm', registry_ids: [], foo: 1 } }],
      ['create, short ID', 'POST', '/api/v1/watchlists', { key: s, body: { name: 'm', registry_ids: ['123'] } }],
      ['list', 'GET', '/api/v1/watchlists', { key: s }],
      ['read', 'GET', wl, { key: s }],
      ['change', 'PATCH', wl, { key: s, body: { name: 'renamed' } }],
      ['change nothing', 'PATCH', wl, { key: s, body: {} }],
      ['ids', 'GET', `${wl}/registry_ids`, { key: s }],
      ['changes', 'GET', `${wl}/changes`, { key: s }],
      ['deliveries', 'GET', `${wl}/deliveries`, { key: s }],
      ['no such list', 'GET', '/api/v1/watchlists/wl_0000000000000000', { key: s }],
    ];
    expect((await Promise.all(calls.map(drift))).flat()).toEqual([]);
    expect(await drift(['delete', 'DELETE', wl, { key: s }])).toEqual([]);
  });
});
