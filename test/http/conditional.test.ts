import { describe, expect, it } from 'bun:test';
import { noneMatchHits } from '../../src/api/http/conditional';
import { DEFAULT_ROWS, facility, json, makeWorld, memoryIndex, type TestWorld } from '../helpers';
import { tempDir } from '../support/temp-dir';

const HOUSTON = { lat: 29.7604, lng: -95.3698 };
const ID = DEFAULT_ROWS[1]!.registry_id;
const world = makeWorld({ config: { reportCacheDir: tempDir('conditional') } });
const paid = await world.keyFor('enterprise');
const free = await world.keyFor('free');
const usage = (accountId: string) => world.store.monthlyUsage(accountId, world.clock());

const get = (path: string, key = paid.key, headers: Record<string, string> = {}, w: TestWorld = world) => w.call(path, { key, headers });
const post = (path: string, body?: unknown, headers: Record<string, string> = {}) =>
  world.call(path, { method: 'POST', key: paid.key, headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });

/** Every GET answer that carries an ETag. */
const TAGGED_GETS = [
  ['facility lookup', `/api/v1/facility/${ID}`],
  ['facility lookup with evidence', `/api/v1/facility/${ID}?include=evidence`],
  ['history', `/api/v1/facility/${ID}/history`],
  ['area', `/api/v1/area?lat=${HOUSTON.lat}&lng=${HOUSTON.lng}&radius_miles=5`],
  ['area CSV', `/api/v1/area?lat=${HOUSTON.lat}&lng=${HOUSTON.lng}&radius_miles=5&format=csv`],
  ['search', '/api/v1/search?q=refining'],
] as const;

describe('conditional GETs: ETag, then 304 Not Modified', () => {
  it.each(TAGGED_GETS)('%s: a weak ETag and Cache-Control: private, no-cache; the ETag sent back gets a 304 with no body', async (_name, path) => {
    const first = await get(path);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"[^"]+"$/);
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    const again = await get(path, paid.key, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('cache-control')).toBe('private, no-cache');
    expect(again.headers.get('x-request-id')).toMatch(/^req_/);
    // the 304 names what the 200 varies on (RFC 9110 15.4.5)
    const names = (r: Response) => (r.headers.get('vary') ?? '').split(/,\s*/).filter(Boolean);
    for (const name of names(first)) expect(names(again)).toContain(name);
    // another tag, or the same one among others
    expect((await get(path, paid.key, { 'if-none-match': 'W/"other"' })).status).toBe(200);
    expect((await get(path, paid.key, { 'if-none-match': `"a", ${etag}` })).status).toBe(304);
  });

  it('a 304 counts as a call, like the 200 it stands for, and carries the quota headers', async () => {
    const path = `/api/v1/facility/${ID}`;
    const etag = (await get(path)).headers.get('etag')!;
    const before = await usage(paid.accountId);
    const res = await get(path, paid.key, { 'if-none-match': etag });
    expect(res.status).toBe(304);
    expect(await usage(paid.accountId)).toBe(before + 1);
    expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
  });

  it("a Free caller's redacted view has its own ETag, which a Starter+ answer never matches", async () => {
    const path = `/api/v1/facility/${ID}`;
    const freeTag = (await get(path, free.key)).headers.get('etag')!;
    const paidTag = (await get(path)).headers.get('etag')!;
    expect(freeTag).not.toBe(paidTag);
    expect((await get(path, free.key, { 'if-none-match': freeTag })).status).toBe(304);
    expect((await get(path, paid.key, { 'if-none-match': freeTag })).status).toBe(200);
  });

  it('the lookup with evidence, the CSV form of an area and another query each have their own ETag', async () => {
    const tags = await Promise.all(
      [`/api/v1/facility/${ID}`, `/api/v1/facility/${ID}?include=evidence`, TAGGED_GETS[3][1], TAGGED_GETS[4][1], `${TAGGED_GETS[3][1]}&limit=1`].map(async (p) => (await get(p)).headers.get('etag')),
    );
    expect(new Set(tags).size).toBe(tags.length);
  });

  it('If-None-Match: * matches a facility that exists, and an unknown one is still 404', async () => {
    expect((await get(`/api/v1/facility/${ID}`, paid.key, { 'if-none-match': '*' })).status).toBe(304);
    expect((await get('/api/v1/facility/990099999999', paid.key, { 'if-none-match': '*' })).status).toBe(404);
  });
});

describe('the ETag follows the data', () => {
  const lookupTag = async (w: TestWorld) => {
    const k = (await w.keyFor('enterprise')).key;
    return (await get(`/api/v1/facility/${ID}`, k, {}, w)).headers.get('etag');
  };

  it('a changed score (another score hash) in the same release gives another ETag', async () => {
    const rescored = DEFAULT_ROWS.map((r) => (r.registry_id === ID ? facility({ ...r, overall_score: 55, score_hash: 'hash-rescored' }) : r));
    const [before, after] = [await lookupTag(makeWorld()), await lookupTag(makeWorld({ rows: rescored }))];
    expect(after).not.toBe(before);
  });

  it('the same facility in another release gives another ETag', async () => {
    const [before, after] = [await lookupTag(makeWorld()), await lookupTag(makeWorld({ deps: { index: memoryIndex(DEFAULT_ROWS, { as_of: '2026-11-08' }) } }))];
    expect(after).not.toBe(before);
  });

  it('the same data in the same release gives the same ETag (two servers agree)', async () => {
    expect(await lookupTag(makeWorld())).toBe(await lookupTag(makeWorld()));
  });
});

describe('conditional POSTs of the PDFs: ETag, then 412 PRECONDITION_FAILED', () => {
  it.each([
    ['dossier', `/api/v1/facility/${ID}/report`, undefined],
    ['site report PDF', '/api/v1/site-report?format=pdf', HOUSTON],
  ] as const)('%s: the ETag is the same for the same document, and sent back it is a 412 envelope, counted', async (_name, path, body) => {
    const first = await post(path, body);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"[0-9a-f]{32}"$/);
    expect((await post(path, body)).headers.get('etag')).toBe(etag);
    const before = await usage(paid.accountId);
    const refused = await post(path, body, { 'if-none-match': etag });
    expect(refused.status).toBe(412);
    const envelope = await json(refused);
    expect(envelope.error.code).toBe('PRECONDITION_FAILED');
    expect(refused.headers.get('etag')).toBe(etag);
    expect(await usage(paid.accountId)).toBe(before + 1);
    const other = await post(path, body, { 'if-none-match': 'W/"0123"' });
    expect(other.status).toBe(200);
    expect(other.headers.get('content-type')).toBe('application/pdf');
  });
});

describe('noneMatchHits compares weakly (RFC 9110 8.8.3.2)', () => {
  it.each([
    [null, false],
    ['*', true],
    ['W/"a"', true],
    ['"a"', true],
    ['"b", W/"a"', true],
    ['"b"', false],
    ['W/"ab"', false],
  ] as const)('%p against W/"a": %p', (header, hit) => {
    expect(noneMatchHits(header, 'W/"a"')).toBe(hit);
  });
});
