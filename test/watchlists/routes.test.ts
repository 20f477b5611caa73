import { describe, expect, it } from 'bun:test';
import { json, makeWorld } from '../helpers';
import { historyIndex } from '../support/history-index';
import { A, B, C, D, E, HISTORY, RELEASES, ROWS_3 } from '../support/release-fixture';

const ALLOW = { webhookAllow: ['127.0.0.1/32', 'hooks.example.com'] };

function world(config: Record<string, unknown> = ALLOW) {
  return makeWorld({ config, deps: { index: historyIndex(ROWS_3, RELEASES, HISTORY) } });
}

function post(w: ReturnType<typeof makeWorld>, key: string, body: unknown, path = '/api/v1/watchlists', method = 'POST') {
  return w.call(path, { method, key, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

describe('watchlist access', () => {
  it('a Free key gets 403 TIER_RESTRICTED; no key gets 401', async () => {
    const w = world();
    const { key } = await w.keyFor('free');
    const res = await post(w, key, { name: 'x', registry_ids: [] });
    expect(res.status).toBe(403);
    expect((await json(res)).error.code).toBe('TIER_RESTRICTED');
    expect((await w.call('/api/v1/watchlists')).status).toBe(401);
  });

  it("another account's watchlist is 404 on every route, as if it did not exist", async () => {
    const w = world();
    const owner = await w.keyFor('starter');
    const other = await w.keyFor('starter');
    const id = (await json(await post(w, owner.key, { name: 'mine', registry_ids: [A] }))).data.id;
    for (const [path, method] of [[`/api/v1/watchlists/${id}`, 'GET'], [`/api/v1/watchlists/${id}`, 'DELETE'], [`/api/v1/watchlists/${id}/changes`, 'GET'], [`/api/v1/watchlists/${id}/deliveries`, 'GET'], [`/api/v1/watchlists/${id}/secret`, 'POST']] as const) {
      const res = await w.call(path, { method, key: other.key });
      expect([path, method, res.status]).toEqual([path, method, 404]);
      expect((await json(res)).error.code).toBe('NOT_FOUND');
    }
    const patched = await post(w, other.key, { name: 'stolen' }, `/api/v1/watchlists/${id}`, 'PATCH');
    expect(patched.status).toBe(404);
    expect((await json(await w.call(`/api/v1/watchlists/${id}`, { key: owner.key }))).data.name).toBe('mine');
  });

  it('managing watchlists is not counted against the monthly quota; polling changes is', async () => {
    const w = world();
    const { key, accountId } = await w.keyFor('starter');
    const id = (await json(await post(w, key, { name: 'n', registry_ids: [A] }))).data.id;
    await w.call('/api/v1/watchlists', { key });
    await w.call(`/api/v1/watchlists/${id}`, { key });
    await w.call(`/api/v1/watchlists/${id}/deliveries`, { key });
    expect(await w.store.monthlyUsage(accountId, w.clock())).toBe(0);
    const res = await w.call(`/api/v1/watchlists/${id}/changes`, { key });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-remaining')).not.toBeNull();
    expect(await w.store.monthlyUsage(accountId, w.clock())).toBe(1);
  });
});

describe('creating and changing watchlists', () => {
  it('creation answers 201 with the list and its whsec_ secret, shown this once', async () => {
    const w = world();
    const { key } = await w.keyFor('starter');
    const res = await post(w, key, { name: 'Portfolio', registry_ids: [A, B, A], rule: { type: 'score_dropped', min_points: 5 }, webhook_url: 'http://127.0.0.1:9/hook' });
    expect(res.status).toBe(201);
    const { data } = await json(res);
    expect(data).toMatchObject({ name: 'Portfolio', registry_ids: [A, B], rule: { type: 'score_dropped', min_points: 5 }, webhook_url: 'http://127.0.0.1:9/hook', base_as_of: '2026-10-15' });
    expect(data.id).toMatch(/^wl_[0-9a-f]{16}$/);
    expect(data.webhook_secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const again = (await json(await w.call(`/api/v1/watchlists/${data.id}`, { key }))).data;
    expect(again.webhook_secret).toBeUndefined();
    const listed = (await json(await w.call('/api/v1/watchlists', { key }))).data;
    expect(listed.total).toBe(1);
    expect(listed.watchlists[0].webhook_secret).toBeUndefined();
  });

  it('a webhook while the operator allows no targets is 422 naming the setting', async () => {
    const w = world({});
    const { key } = await w.keyFor('enterprise');
    const res = await post(w, key, { name: 'n', registry_ids: [A], webhook_url: 'https://hooks.example.com/x' });
    expect(res.status).toBe(422);
    const body = await json(res);
    expect(body.error.code).toBe('VALIDATION_ERROR');
    expect(body.error.message).toContain('--webhook-allow');
    expect(body.error.message).toContain('FCS_WEBHOOK_ALLOW');
    expect((await post(w, key, { name: 'no hook', registry_ids: [A] })).status).toBe(201);
  });

  it.each([
    ['a host the list does not name', 'https://evil.example.net/x'],
    ['an address outside the listed CIDR', 'http://10.0.0.1/x'],
    ['a URL with credentials', 'https://u:p@hooks.example.com/x'],
    ['a non-http scheme', 'ftp://hooks.example.com/x'],
    ['no URL at all', 'not a url'],
  ])('a webhook_url of %s is 422 VALIDATION_ERROR', async (_what, url) => {
    const w = world();
    const { key } = await w.keyFor('starter');
    const res = await post(w, key, { name: 'n', registry_ids: [A], webhook_url: url });
    expect(res.status).toBe(422);
    expect((await json(res)).error.code).toBe('VALIDATION_ERROR');
  });

  it.each([
    ['a leading space', ' https://hooks.example.com/x'],
    ['a trailing space', 'https://hooks.example.com/x '],
    ['a tab inside', 'https://hooks.example.com/\tx'],
    ['a newline', 'https://hooks.example.com/x\n'],
    ['a zero-width space in the host', 'https://hooks\u200b.example.com/x'],
    ['a scheme without //', 'http:hooks.example.com/x'],
    ['one slash', 'https:/hooks.example.com/x'],
    ['three slashes', 'https:///hooks.example.com/x'],
    ['backslashes for slashes', 'https:\\\\hooks.example.com\\x'],
    ['a #fragment', 'https://hooks.example.com/x#part'],
  ])('a webhook_url with %s is refused with 422 naming the field, on create and on PATCH', async (_what, url) => {
    const w = world();
    const { key } = await w.keyFor('starter');
    const res = await post(w, key, { name: 'n', registry_ids: [A], webhook_url: url });
    expect(res.status).toBe(422);
    const body = await json(res);
    expect(body.error).toMatchObject({ code: 'VALIDATION_ERROR', status: 422 });
    expect(body.error.message).toMatch(/^webhook_url must be /);
    const id = (await json(await post(w, key, { name: 'n', registry_ids: [A] }))).data.id;
    const patched = await post(w, key, { webhook_url: url }, `/api/v1/watchlists/${id}`, 'PATCH');
    expect(patched.status).toBe(422);
    expect((await json(patched)).error.message).toMatch(/^webhook_url must be /);
  });

  it.each([
    ['upper-case scheme and host', 'HTTPS://HOOKS.Example.COM/Path?q=1', 'https://hooks.example.com/Path?q=1'],
    ['full-width letters in the host', 'https://ｈｏｏｋｓ.example.com/x', 'https://hooks.example.com/x'],
    ['the default port', 'https://hooks.example.com:443/x', 'https://hooks.example.com/x'],
    ['no path', 'https://hooks.example.com', 'https://hooks.example.com/'],
    ['an IDN host (stored in punycode)', 'https://bücher.example/x', 'https://xn--bcher-kva.example/x'],
    ['an IPv4 address in another notation', 'http://2130706433:9/h', 'http://127.0.0.1:9/h'],
  ])('a webhook_url with %s is stored and shown normalised', async (_what, url, stored) => {
    const w = world({ webhookAllow: ['127.0.0.1/32', 'hooks.example.com', 'bücher.example'] });
    const { key } = await w.keyFor('starter');
    const res = await post(w, key, { name: 'n', registry_ids: [A], webhook_url: url });
    expect(res.status).toBe(201);
    const made = (await json(res)).data;
    expect(made.webhook_url).toBe(stored);
    expect((await w.store.watch.getWatchlist(made.id))!.webhook_url).toBe(stored);
  });

  it.each([
    ['starter', 100, 5],
    ['platform', 1000, 20],
  ] as const)('a %s list holds at most %d IDs and an account at most %d lists: 422 beyond', async (tier, ids, lists) => {
    const w = world();
    const { key } = await w.keyFor(tier);
    const many = Array.from({ length: ids + 1 }, (_, i) => String(990000000000 + i));
    const over = await post(w, key, { name: 'n', registry_ids: many });
    expect(over.status).toBe(422);
    expect((await json(over)).error.message).toContain(`at most ${ids} registry IDs`);
    expect((await post(w, key, { name: 'n', registry_ids: many.slice(0, ids) })).status).toBe(201);
    for (let i = 1; i < lists; i++) expect((await post(w, key, { name: `n${i}`, registry_ids: [] })).status).toBe(201);
    const tooMany = await post(w, key, { name: 'one more', registry_ids: [] });
    expect(tooMany.status).toBe(422);
    expect((await json(tooMany)).error.message).toContain(`at most ${lists} watchlists`);
  });

  it.each([
    ['no name', { registry_ids: [] }],
    ['a field the body does not take', { name: 'n', registry_ids: [], foo: 1 }],
    ['an unknown rule', { name: 'n', registry_ids: [], rule: { type: 'sometimes' } }],
    ['a score rule without its points', { name: 'n', registry_ids: [], rule: { type: 'score_dropped' } }],
  ])('a body with %s is 400 INVALID_BODY', async (_what, body) => {
    const w = world();
    const { key } = await w.keyFor('starter');
    const res = await post(w, key, body);
    expect(res.status).toBe(400);
    expect((await json(res)).error.code).toBe('INVALID_BODY');
  });

  it('an ID that is not 12 digits ("123") is 422 naming each bad one with its place, and the list is not made', async () => {
    const w = world();
    const { key, accountId } = await w.keyFor('starter');
    const res = await post(w, key, { name: 'n', registry_ids: [A, '123', 'x', 990000000001] });
    expect(res.status).toBe(422);
    expect((await json(res)).error.message).toBe('registry_ids must be EPA Registry IDs of 12 digits; 3 are not: [1] "123", [2] "x", [3] 990000000001');
    expect(await w.store.watch.watchlistSummaries(accountId)).toEqual([]);
  });

  it('6,000 bad IDs get a message naming the first 20 and how many, under 4 KB', async () => {
    const w = world();
    const { key } = await w.keyFor('enterprise');
    const res = await post(w, key, { name: 'n', registry_ids: Array.from({ length: 6000 }, (_, i) => String(i)) });
    expect(res.status).toBe(422);
    const { message } = (await json(res)).error;
    expect(message).toStartWith('registry_ids must be EPA Registry IDs of 12 digits; 6,000 are not: [0] "0", [1] "1",');
    expect(message).toEndWith('[19] "19" (the first 20 of 6,000)');
    expect(message.length).toBeLessThan(4096);
  });

  it('PATCH with an empty body, or a field the body does not take, is 400 naming what it takes; the list is unchanged', async () => {
    const w = world();
    const { key } = await w.keyFor('starter');
    const made = (await json(await post(w, key, { name: 'n', registry_ids: [A] }))).data;
    const empty = await post(w, key, {}, `/api/v1/watchlists/${made.id}`, 'PATCH');
    expect([empty.status, (await json(empty)).error.message]).toEqual([400, 'The body changes nothing: give at least one of name, registry_ids, rule, webhook_url']);
    const extra = await post(w, key, { foo: 1, name: 'x' }, `/api/v1/watchlists/${made.id}`, 'PATCH');
    expect([extra.status, (await json(extra)).error.message]).toEqual([400, 'unknown field "foo"; a watchlist takes name, registry_ids, rule, webhook_url']);
    expect((await w.store.watch.getWatchlist(made.id))!.name).toBe('n');
  });

  it('PATCH changes the given fields; a first webhook brings its secret, null removes it', async () => {
    const w = world();
    const { key } = await w.keyFor('starter');
    const id = (await json(await post(w, key, { name: 'n', registry_ids: [A] }))).data.id;
    w.clock.advance(1000);
    const p1 = (await json(await post(w, key, { name: 'renamed', rule: { type: 'enforcement_started' }, webhook_url: 'https://hooks.example.com/a' }, `/api/v1/watchlists/${id}`, 'PATCH'))).data;
    expect(p1).toMatchObject({ name: 'renamed', registry_ids: [A], rule: { type: 'enforcement_started' }, webhook_url: 'https://hooks.example.com/a' });
    expect(p1.updated_at).not.toBe(p1.created_at);
    expect(p1.webhook_secret).toMatch(/^whsec_/);
    const p2 = (await json(await post(w, key, { webhook_url: 'https://hooks.example.com/b' }, `/api/v1/watchlists/${id}`, 'PATCH'))).data;
    expect(p2.webhook_secret).toBeUndefined();
    const p3 = (await json(await post(w, key, { webhook_url: null, rule: null }, `/api/v1/watchlists/${id}`, 'PATCH'))).data;
    expect(p3).toMatchObject({ webhook_url: null, rule: null });
    expect((await w.store.watch.getWatchlist(id))!.webhook_secret).toBeNull();
  });

  it('rotation gives a new secret once; a list without webhook has none to rotate (422)', async () => {
    const w = world();
    const { key } = await w.keyFor('starter');
    const made = (await json(await post(w, key, { name: 'n', registry_ids: [A], webhook_url: 'http://127.0.0.1:9/h' }))).data;
    const rotated = (await json(await w.call(`/api/v1/watchlists/${made.id}/secret`, { method: 'POST', key }))).data;
    expect(rotated.webhook_secret).toMatch(/^whsec_/);
    expect(rotated.webhook_secret).not.toBe(made.webhook_secret);
    expect((await w.store.watch.getWatchlist(made.id))!.webhook_secret).toBe(rotated.webhook_secret);
    const plain = (await json(await post(w, key, { name: 'plain', registry_ids: [] }))).data;
    expect((await w.call(`/api/v1/watchlists/${plain.id}/secret`, { method: 'POST', key })).status).toBe(422);
  });

  it('DELETE removes the list; a malformed id is 404', async () => {
    const w = world();
    const { key } = await w.keyFor('starter');
    const id = (await json(await post(w, key, { name: 'n', registry_ids: [A] }))).data.id;
    const del = await w.call(`/api/v1/watchlists/${id}`, { method: 'DELETE', key });
    expect((await json(del)).data).toEqual({ id, deleted: true });
    expect((await w.call(`/api/v1/watchlists/${id}`, { key })).status).toBe(404);
    expect((await w.call('/api/v1/watchlists/nope', { key })).status).toBe(404);
  });
});

describe('polling changes', () => {
  async function listWith(w: ReturnType<typeof world>, body: Record<string, unknown>) {
    const { key } = await w.keyFor('starter');
    const id = (await json(await post(w, key, { name: 'n', registry_ids: [A, B, C, D, E], ...body }))).data.id;
    return (q = '') => w.call(`/api/v1/watchlists/${id}/changes${q}`, { key });
  }

  it('without since: the matching changes of the newest release (an addition is not one)', async () => {
    const changes = await listWith(world(), {});
    const { data } = await json(await changes());
    expect(data).toMatchObject({ since: '2026-10-08', as_of: '2026-10-15', total: 2 });
    expect(data.changes.map((c: any) => [c.registry_id, c.type, c.previous_score, c.overall_score])).toEqual([
      [A, 'facility.score_changed', 70, 75],
      [D, 'facility.score_changed', 88, 80],
    ]);
  });

  it('since an older release: every release after it, oldest first, under the rule', async () => {
    const w = world();
    const all = await listWith(w, {});
    const got = (await json(await all('?since=2026-10-01'))).data.changes.map((c: any) => [c.as_of, c.registry_id, c.type]);
    expect(got).toEqual([
      ['2026-10-08', A, 'facility.score_changed'],
      ['2026-10-08', B, 'facility.enforcement_started'],
      ['2026-10-08', C, 'facility.removed'],
      ['2026-10-15', A, 'facility.score_changed'],
      ['2026-10-15', D, 'facility.score_changed'],
    ]);
    const drops = await listWith(w, { rule: { type: 'score_dropped', min_points: 8 } });
    expect((await json(await drops('?since=2000-01-01'))).data.changes.map((c: any) => c.registry_id)).toEqual([A, D]);
    const removed = await listWith(w, { rule: { type: 'facility_removed' } });
    expect((await json(await removed('?since=2026-10-01'))).data.changes).toMatchObject([{ registry_id: C, fac_name: null, overall_score: null, previous_score: 60 }]);
  });

  it('since the newest release: nothing; a malformed since: 422', async () => {
    const changes = await listWith(world(), {});
    expect((await json(await changes('?since=2026-10-15'))).data.total).toBe(0);
    const bad = await changes('?since=last-week');
    expect(bad.status).toBe(422);
    expect((await json(bad)).error.code).toBe('VALIDATION_ERROR');
  });
});
