import { describe, expect, it } from 'bun:test';
import { hashKey } from '../../src/access/key-format';
import type { Config } from '../../src/config';
import { makeWorld, json, type TestWorld } from '../helpers';
import { bearer, claims, SECRET, signHs } from './support';

const FACILITY = '/api/v1/facility/990000000001';

/** A world whose account login uses the shared test secret (HS256 mode). */
function accountWorld(config: Partial<Config> = {}): TestWorld {
  return makeWorld({ config: { ...config, jwt: { secret: SECRET, ...config.jwt } } });
}

const as = async (sub: string, extra = {}) => bearer(await signHs(claims({ sub, ...extra })));
const post = async (w: TestWorld, path: string, sub: string, extra = {}) => w.call(path, { method: 'POST', headers: await as(sub, extra) });
const issue = (w: TestWorld, sub: string, extra = {}) => post(w, '/api/v1/account/key', sub, extra);
const regenerate = (w: TestWorld, sub: string) => post(w, '/api/v1/account/key/regenerate', sub);
const overview = async (w: TestWorld, sub: string) => w.call('/api/v1/account', { headers: await as(sub) });

describe('POST /api/v1/account/key: the first key', () => {
  it('creates the account on the sign-up tier and shows a working key once (201, no-store)', async () => {
    const w = accountWorld();
    const res = await issue(w, 'alice');
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const { data } = await json(res);
    expect(data.key).toMatch(/^fcs_live_[0-9A-Za-z]{32}$/);
    expect(data.key.startsWith(data.key_prefix)).toBe(true);
    expect(data).toMatchObject({ tier: 'free', key_created_at: '2026-11-15T12:00:00.000Z' });
    const account = await w.store.findAccountBySubject('alice');
    expect(account).toMatchObject({ id: data.account_id, tier: 'free', key_prefix: data.key_prefix });
    expect(await w.store.findAccountByKeyHash(hashKey(data.key))).toMatchObject({ id: data.account_id });
    expect((await w.call(FACILITY, { key: data.key })).status).toBe(200);
  });

  it('a second call when the key exists is 409 KEY_EXISTS, shows no key, and the first key keeps working', async () => {
    const w = accountWorld();
    const first = (await json(await issue(w, 'bob'))).data;
    const res = await issue(w, 'bob');
    const body = await json(res);
    expect(res.status).toBe(409);
    expect(body.error.code).toBe('KEY_EXISTS');
    expect(body.error.message).toContain('/api/v1/account/key/regenerate');
    expect(JSON.stringify(body)).not.toMatch(/fcs_live_[0-9A-Za-z]{32}/);
    expect((await w.call(FACILITY, { key: first.key })).status).toBe(200);
  });

  it('the sign-up tier is configurable', async () => {
    const w = accountWorld({ signupTier: 'starter' });
    expect((await json(await issue(w, 'carol'))).data.tier).toBe('starter');
  });

  it('ten simultaneous first calls for one subject make one account and one key: one 201, nine 409', async () => {
    const w = accountWorld();
    const statuses = (await Promise.all(Array.from({ length: 10 }, () => issue(w, 'dave')))).map((r) => r.status).sort();
    expect(statuses).toEqual([201, ...Array(9).fill(409)]);
    expect((await w.store.listAccounts()).filter((a) => a.subject === 'dave')).toHaveLength(1);
  });

  it('an account the operator made for the subject, whose key was revoked, gets a new key and keeps its tier', async () => {
    const w = accountWorld();
    const { accountId } = await w.keyFor('platform', { subject: 'erin' });
    await w.store.revokeKey(accountId);
    const res = await issue(w, 'erin');
    expect(res.status).toBe(201);
    expect((await json(res)).data).toMatchObject({ account_id: accountId, tier: 'platform' });
  });

  it('the display name comes from the token (name or email claim)', async () => {
    const w = accountWorld();
    await issue(w, 'frank', { email: 'frank@example.test' });
    expect((await w.store.findAccountBySubject('frank'))?.name).toBe('frank@example.test');
  });
});

describe('POST /api/v1/account/key/regenerate', () => {
  it('returns a new key once; the old key is 401 on its very next call and the new one works', async () => {
    const w = accountWorld();
    const old = (await json(await issue(w, 'gina'))).data.key;
    w.clock.advance(1000);
    const res = await regenerate(w, 'gina');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const fresh = (await json(res)).data;
    expect(fresh.key).not.toBe(old);
    expect(fresh.key_created_at).toBe('2026-11-15T12:00:01.000Z');
    const refused = await w.call(FACILITY, { key: old });
    expect(refused.status).toBe(401);
    expect((await json(refused)).error.code).toBe('UNAUTHENTICATED');
    expect((await w.call(FACILITY, { key: fresh.key })).status).toBe(200);
    expect((await json(await overview(w, 'gina'))).data.key_prefix).toBe(fresh.key_prefix);
  });

  it('with no account yet: 404 NOT_FOUND that points to POST /account/key', async () => {
    const w = accountWorld();
    const res = await regenerate(w, 'nobody');
    expect(res.status).toBe(404);
    const body = await json(res);
    expect(body.error.code).toBe('NOT_FOUND');
    expect(body.error.message).toContain('POST /api/v1/account/key');
  });

  it('with an account whose key was revoked: 404 NOT_FOUND (no key record to regenerate)', async () => {
    const w = accountWorld();
    const { accountId } = await w.keyFor('starter', { subject: 'hank' });
    await w.store.revokeKey(accountId);
    expect((await regenerate(w, 'hank')).status).toBe(404);
  });

  it.each([
    [1_000, 59],
    [30_000, 30],
    [59_000, 1],
    [59_999, 1],
  ])('%i ms after a regeneration: 429 REGENERATE_THROTTLED with Retry-After %i', async (after, retryAfter) => {
    const w = accountWorld();
    await issue(w, 'ivy');
    expect((await regenerate(w, 'ivy')).status).toBe(200);
    w.clock.advance(after);
    const res = await regenerate(w, 'ivy');
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe(String(retryAfter));
    expect((await json(res)).error.code).toBe('REGENERATE_THROTTLED');
  });

  it('60 s after a regeneration the next one goes through, and a throttled attempt does not restart the minute', async () => {
    const w = accountWorld();
    await issue(w, 'jack');
    expect((await regenerate(w, 'jack')).status).toBe(200);
    w.clock.advance(59_000);
    expect((await regenerate(w, 'jack')).status).toBe(429);
    w.clock.advance(1_000);
    expect((await regenerate(w, 'jack')).status).toBe(200);
  });

  it('a throttled attempt leaves the current key working', async () => {
    const w = accountWorld();
    await issue(w, 'kate');
    const current = (await json(await regenerate(w, 'kate'))).data.key;
    expect((await regenerate(w, 'kate')).status).toBe(429);
    expect((await w.call(FACILITY, { key: current })).status).toBe(200);
  });

  it('five simultaneous regenerations: one 200, four 429, and the key that works is the one the 200 returned', async () => {
    const w = accountWorld();
    const old = (await json(await issue(w, 'liam'))).data.key;
    const results = await Promise.all(Array.from({ length: 5 }, () => regenerate(w, 'liam')));
    expect(results.map((r) => r.status).sort()).toEqual([200, 429, 429, 429, 429]);
    const winner = (await json(results.find((r) => r.status === 200)!)).data.key;
    expect((await w.call(FACILITY, { key: winner })).status).toBe(200);
    expect((await w.call(FACILITY, { key: old })).status).toBe(401);
  });

  it('under a burst of concurrent data calls with the old key, every call after the regeneration resolves is 401', async () => {
    const w = accountWorld({ signupTier: 'enterprise' });
    const old = (await json(await issue(w, 'mia'))).data.key;
    const inFlight = Array.from({ length: 100 }, () => w.call(FACILITY, { key: old }));
    const regen = regenerate(w, 'mia');
    const more = Array.from({ length: 100 }, () => w.call(FACILITY, { key: old }));
    const fresh = (await json(await regen)).data.key;
    const after = await Promise.all(Array.from({ length: 50 }, () => w.call(FACILITY, { key: old })));
    expect(after.map((r) => r.status)).toEqual(Array(50).fill(401));
    // Calls that raced the swap were answered one way or the other, never with an error of ours.
    for (const r of await Promise.all([...inFlight, ...more])) expect([200, 401]).toContain(r.status);
    expect((await w.call(FACILITY, { key: fresh })).status).toBe(200);
  });
});

describe('GET /api/v1/account', () => {
  it('shows tier, key prefix (never the key), calls this month, the limit and when it resets', async () => {
    const w = accountWorld();
    const { key, key_prefix, account_id } = (await json(await issue(w, 'noah'))).data;
    for (let i = 0; i < 3; i++) expect((await w.call(FACILITY, { key })).status).toBe(200);
    expect((await w.call('/api/v1/facility/not-an-id', { key })).status).toBe(404); // malformed: not counted
    const res = await overview(w, 'noah');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = await json(res);
    expect(body.data).toEqual({
      account_id,
      subject: 'noah',
      tier: 'free',
      plan: 'Free',
      key_prefix,
      key_created_at: '2026-11-15T12:00:00.000Z',
      month: '2026-11',
      calls_this_month: 3,
      monthly_limit: 10,
      calls_remaining: 7,
      resets_at: '2026-12-01T00:00:00.000Z',
      created_at: '2026-11-15T12:00:00.000Z',
    });
    expect(JSON.stringify(body)).not.toContain(key);
  });

  it('a per-account limit set by the operator is the limit shown', async () => {
    const w = accountWorld();
    const { account_id } = (await json(await issue(w, 'olga'))).data;
    await w.store.setMonthlyLimit(account_id, 25);
    expect((await json(await overview(w, 'olga'))).data).toMatchObject({ monthly_limit: 25, calls_remaining: 25 });
  });

  it('in the next calendar month the count starts again at 0', async () => {
    const w = accountWorld();
    const { key } = (await json(await issue(w, 'paul'))).data;
    await w.call(FACILITY, { key });
    const december = Date.UTC(2026, 11, 1, 0, 0, 0);
    w.clock.set(december);
    const headers = await as('paul', { iat: december / 1000, exp: december / 1000 + 600 });
    expect((await json(await w.call('/api/v1/account', { headers }))).data).toMatchObject({ month: '2026-12', calls_this_month: 0, resets_at: '2027-01-01T00:00:00.000Z' });
  });

  it('with no account yet: 404 NOT_FOUND', async () => {
    const res = await overview(accountWorld(), 'stranger');
    expect(res.status).toBe(404);
    expect((await json(res)).error.code).toBe('NOT_FOUND');
  });
});

describe('account endpoints and the monthly quota', () => {
  it('are not counted, and still answer when the Free quota is used up', async () => {
    const w = accountWorld();
    const { key, account_id } = (await json(await issue(w, 'quinn'))).data;
    await overview(w, 'quinn');
    expect(await w.store.monthlyUsage(account_id, w.clock())).toBe(0);
    for (let i = 0; i < 10; i++) await w.call(FACILITY, { key });
    expect((await w.call(FACILITY, { key })).status).toBe(402);
    expect((await overview(w, 'quinn')).status).toBe(200);
    expect((await regenerate(w, 'quinn')).status).toBe(200);
    expect(await w.store.monthlyUsage(account_id, w.clock())).toBe(10);
  });
});

describe('data endpoints keep refusing Bearer', () => {
  it('a valid account JWT on a data endpoint is 401, with or without an API key', async () => {
    const w = accountWorld();
    const { key } = (await json(await issue(w, 'rita'))).data;
    const headers = await as('rita');
    expect((await w.call(FACILITY, { headers })).status).toBe(401);
    expect((await w.call(FACILITY, { headers, key })).status).toBe(401);
  });
});

describe('keys never reach the log', () => {
  it('issuing and regenerating log the account and key prefix, not the key or the token', async () => {
    const w = accountWorld();
    const token = (await as('sam')).authorization.slice('Bearer '.length);
    const first = (await json(await w.call('/api/v1/account/key', { method: 'POST', headers: bearer(token) }))).data;
    const second = (await json(await w.call('/api/v1/account/key/regenerate', { method: 'POST', headers: bearer(token) }))).data;
    const logged = JSON.stringify(w.logs);
    expect(logged).toContain(first.key_prefix);
    expect(logged).toContain(second.key_prefix);
    expect(logged).not.toContain(first.key);
    expect(logged).not.toContain(second.key);
    expect(logged).not.toContain(token);
  });
});
