import { describe, expect, it } from 'bun:test';
import { json, makeWorld } from '../helpers';

const world = makeWorld();
const starterKey = (await world.keyFor('starter', { monthlyLimit: 1_000 })).key;

describe('API-key authentication', () => {
  const id = '/api/v1/facility/990000000001';
  it.each([
    ['no key', {}],
    ['an empty key', { 'x-api-key': '' }],
    ['a wrong key', { 'x-api-key': 'fcs_live_000000000000000000000000000000000' }],
    ['a 10 kB key', { 'x-api-key': 'k'.repeat(10_000) }],
    ['the key in an Authorization Bearer header', { authorization: 'Bearer KEY' }],
    ['a valid key but also a Bearer header', { authorization: 'Bearer whatever', 'x-api-key': 'KEY' }],
    ['a lower-case bearer scheme', { authorization: 'bearer KEY' }],
  ])('%s is 401 UNAUTHENTICATED', async (_name, headers: Record<string, string>) => {
    const h = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v.replace('KEY', starterKey)]));
    const res = await world.call(id, { headers: h });
    const body = await json(res);
    expect(res.status).toBe(401);
    expect(body.error.code).toBe('UNAUTHENTICATED');
  });

  it('a revoked key is 401 at its next call', async () => {
    const w = makeWorld();
    const k = await w.keyFor('platform');
    expect((await w.call(id, { key: k.key })).status).toBe(200);
    await w.store.revokeKey(k.accountId);
    expect((await w.call(id, { key: k.key })).status).toBe(401);
  });

  it('a tier changed by the admin applies at the next call', async () => {
    const w = makeWorld();
    const k = await w.keyFor('free');
    expect((await json(await w.call(id, { key: k.key }))).data.score_components.redacted).toBe(true);
    await w.store.setTier(k.accountId, 'starter');
    expect((await json(await w.call(id, { key: k.key }))).data.score_components.baseline).toBe(15);
  });

  it('the key never appears in a response or a log line', async () => {
    const w = makeWorld({ config: { logRequests: true } });
    const k = await w.keyFor('starter');
    const res = await w.call(id, { key: k.key });
    const text = (await res.text()) + JSON.stringify([...res.headers]) + JSON.stringify(w.logs);
    expect(text).not.toContain(k.key);
  });
});
