import { describe, expect, it } from 'bun:test';
import { Value } from '@sinclair/typebox/value';
import { TIERS, TIER_RULES } from '../../src/tiers';
import type { FacilityRow } from '../../src/index/model';
import { MAX_BODY_BYTES } from '../../src/portfolio/body';
import { PortfolioResponse } from '../../src/portfolio/model';
import { FacilityIndex, connectionOf } from '../../src/index/facility-index';
import { DEFAULT_ROWS, facility, json, makeWorld, memoryIndex } from '../helpers';

// 600 facilities, so even the Enterprise limit can be filled with known IDs.
const ROWS: FacilityRow[] = [
  ...DEFAULT_ROWS,
  ...Array.from({ length: 600 }, (_, i) => facility({ registry_id: String(991000000000 + i), overall_score: i % 101, active_enforcement: i % 3 === 0 })),
  facility({ registry_id: '٠١٢', fac_name: 'ARABIC-INDIC DIGITS ID (FICTITIOUS)' }),
];
const known = (n: number) => Array.from({ length: n }, (_, i) => String(991000000000 + i));

const world = makeWorld({ rows: ROWS });
const keys = Object.fromEntries(await Promise.all(TIERS.map(async (t) => [t, (await world.keyFor(t, { monthlyLimit: 1_000 })).key] as const)));

type Init = { key?: string | null; type?: string; headers?: Record<string, string> };
function post(body: string | ReadableStream<Uint8Array>, init: Init = {}) {
  const headers = { 'content-type': init.type ?? 'application/json', ...init.headers };
  return world.call('/api/v1/portfolio', { method: 'POST', body, headers, key: init.key === null ? undefined : (init.key ?? keys.enterprise) });
}
const postIds = (ids: unknown[], init: Init = {}) => post(JSON.stringify({ registry_ids: ids }), init);

describe('POST /api/v1/portfolio: batch limits by tier', () => {
  it('a Free key gets 403 TIER_RESTRICTED', async () => {
    const res = await postIds(known(1), { key: keys.free });
    expect(res.status).toBe(403);
    expect((await json(res)).error).toEqual({ code: 'TIER_RESTRICTED', status: 403, message: 'The portfolio endpoint requires a Starter plan or above' });
  });

  it.each([
    ['starter', 10],
    ['platform', 60],
    ['enterprise', 500],
  ] as const)('a %s key may send exactly %i IDs', async (tier, limit) => {
    expect(TIER_RULES[tier].portfolioBatch).toBe(limit);
    const res = await postIds(known(limit), { key: keys[tier] });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(Value.Check(PortfolioResponse, body)).toBe(true);
    expect(body.data.total).toBe(limit);
    expect(body.data.results.map((r: { registry_id: string }) => r.registry_id)).toEqual(known(limit));
  });

  it.each([
    ['starter', 'Starter', 10],
    ['platform', 'Platform', 60],
    ['enterprise', 'Enterprise / Consulting', 500],
  ] as const)('a %s key sending one more is 422 VALIDATION_ERROR saying the limit', async (tier, label, limit) => {
    const res = await postIds(known(limit + 1), { key: keys[tier] });
    expect(res.status).toBe(422);
    const { error } = await json(res);
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.message).toBe(`registry_ids holds ${limit + 1} IDs; the ${label} plan allows at most ${limit} per call`);
  });

  it('duplicates count toward the limit as sent', async () => {
    expect((await postIds(Array(11).fill('990000000001'), { key: keys.starter })).status).toBe(422);
  });
});

describe('POST /api/v1/portfolio: results', () => {
  // every row of this world has NAICS 325110 (over 30 of them: the 6-digit group); percentile = mid-rank
  // (share strictly lower plus half the share with the same score), rounded down
  const scores = ROWS.map((r) => r.overall_score).sort((a, b) => a - b);
  const PEERS = { naics: '325110', naics_digits: 6, peer_count: scores.length, percentile_note: null, median_score: scores[Math.ceil(scores.length / 2) - 1]! };
  const below = (s: number) => Math.floor((100 * (scores.filter((x) => x < s).length + scores.filter((x) => x === s).length / 2)) / scores.length);
  const share = (n: number) => Math.round((10_000 * n) / scores.length) / 10_000;
  const peersOf = (s: number) => ({ ...PEERS, percentile: below(s), share_scoring_better: share(scores.filter((x) => x > s).length), share_tied: share(scores.filter((x) => x === s).length) });
  it('found IDs in request order with the four result fields plus peers and score_change; unknown ones in not_found', async () => {
    const body = await json(await postIds(['990000000002', '123', '990000000001', 'nope']));
    expect(body.data).toEqual({
      results: [
        { registry_id: '990000000002', fac_name: 'TEST FACILITY 990000000002', overall_score: 41, active_enforcement: true, peers: peersOf(41), score_change: null, data_sufficient: true },
        { registry_id: '990000000001', fac_name: 'TEST FACILITY 990000000001', overall_score: 87, active_enforcement: false, peers: peersOf(87), score_change: null, data_sufficient: true },
      ],
      total: 2,
      not_found: ['123', 'nope'],
    });
  });

  it('not_found is an empty array when every ID is known', async () => {
    const body = await json(await postIds(['990000000003']));
    expect(body.data.not_found).toEqual([]);
    expect(body.data.total).toBe(1);
  });

  it('all unknown: no results, every ID in not_found, still 200', async () => {
    const res = await postIds(['1', '2', '3']);
    expect(res.status).toBe(200);
    expect((await json(res)).data).toEqual({ results: [], total: 0, not_found: ['1', '2', '3'] });
  });

  it('an empty list is a valid, empty portfolio', async () => {
    const res = await postIds([]);
    expect(res.status).toBe(200);
    expect((await json(res)).data).toEqual({ results: [], total: 0, not_found: [] });
  });

  it('duplicates are answered once, where they first appear', async () => {
    const body = await json(await postIds(['990000000002', 'x', '990000000001', '990000000002', 'x']));
    expect(body.data.results.map((r: { registry_id: string }) => r.registry_id)).toEqual(['990000000002', '990000000001']);
    expect(body.data.not_found).toEqual(['x']);
    expect(body.data.total).toBe(2);
  });

  it('IDs are matched exactly, unicode included: no trimming, no digit folding', async () => {
    const body = await json(await postIds(['٠١٢', ' 990000000001', '990000000001 ', '😀', '']));
    expect(body.data.results.map((r: { fac_name: string }) => r.fac_name)).toEqual(['ARABIC-INDIC DIGITS ID (FICTITIOUS)']);
    expect(body.data.not_found).toEqual([' 990000000001', '990000000001 ', '😀', '']);
  });

  it('answers 500 IDs of a first release (no history rows) with one SQL statement, not one per ID', async () => {
    // Every statement the index prepares (all at construction) counts its runs.
    const db = connectionOf(memoryIndex(ROWS));
    const prepare = db.prepare.bind(db);
    let runs = 0;
    db.prepare = ((sql: string) => {
      const stmt = prepare(sql);
      const all = stmt.all.bind(stmt);
      const get = stmt.get.bind(stmt);
      stmt.all = ((...args: unknown[]) => (runs++, all(...(args as [])))) as typeof stmt.all;
      stmt.get = ((...args: unknown[]) => (runs++, get(...(args as [])))) as typeof stmt.get;
      return stmt;
    }) as typeof db.prepare;
    const w = makeWorld({ deps: { index: new FacilityIndex(db) } });
    const { key } = await w.keyFor('enterprise');
    runs = 0;
    const res = await w.call('/api/v1/portfolio', { method: 'POST', key, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ registry_ids: known(500) }) });
    expect((await json(res)).data.total).toBe(500);
    expect(runs).toBe(1);
  });
});

describe('POST /api/v1/portfolio: bodies that are not a portfolio are 400 INVALID_BODY', () => {
  it.each([
    ['malformed JSON', '{"registry_ids": [', 'application/json', /Malformed JSON/],
    ['an empty body', '', 'application/json', /Malformed JSON|empty/],
    ['a JSON array', '["990000000001"]', 'application/json', /JSON object/],
    ['JSON null', 'null', 'application/json', /JSON object/],
    ['missing registry_ids', '{"ids": ["990000000001"]}', 'application/json', /unknown field "ids"; the body takes registry_ids only/],
    ['registry_ids not an array', '{"registry_ids": "990000000001"}', 'application/json', /registry_ids must be an array/],
    ['registry_ids an object', '{"registry_ids": {"0": "990000000001"}}', 'application/json', /registry_ids must be an array/],
    ['an item that is a number', '{"registry_ids": ["990000000001", 990000000002]}', 'application/json', /registry_ids\[1\] must be a string, got a number/],
    ['an item that is null', '{"registry_ids": [null]}', 'application/json', /registry_ids\[0\] must be a string, got null/],
    ['text/plain', '{"registry_ids": ["990000000001"]}', 'text/plain', /Content-Type: application\/json/],
    ['a form', 'registry_ids=990000000001', 'application/x-www-form-urlencoded', /Content-Type: application\/json/],
    ['no content type', '{"registry_ids": ["990000000001"]}', '', /Content-Type: application\/json/],
  ])('%s', async (_name, body, type, message) => {
    const res = await post(body, { type });
    expect(res.status).toBe(400);
    const { error } = await json(res);
    expect(error.code).toBe('INVALID_BODY');
    expect(error.message).toMatch(message);
  });

  it('accepts application/json with a charset', async () => {
    expect((await post('{"registry_ids": []}', { type: 'application/json; charset=utf-8' })).status).toBe(200);
  });

  it('without a key a malformed body is 401 first: nothing is said about bodies to strangers', async () => {
    expect((await post('{', { key: null })).status).toBe(401);
  });
});

describe('POST /api/v1/portfolio: oversized bodies are refused before they are read', () => {
  const megabyte = JSON.stringify({ registry_ids: Array.from({ length: 80_000 }, (_, i) => String(990000000000 + i)) });

  it('a 1 MB body with its Content-Length is 413 PAYLOAD_TOO_LARGE without reading it', async () => {
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        pulled++;
        c.enqueue(new TextEncoder().encode(megabyte.slice(0, 16_384)));
      },
    });
    const res = await post(stream, { headers: { 'content-length': String(megabyte.length) } });
    expect(megabyte.length).toBeGreaterThan(1_000_000);
    expect(res.status).toBe(413);
    expect((await json(res)).error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(pulled).toBeLessThanOrEqual(1); // a stream may pre-pull one chunk; nothing is consumed
  });

  /** The megabyte as a stream of 8 KiB chunks that counts what the server pulled from it. */
  function countingStream() {
    const chunk = new TextEncoder().encode(megabyte.slice(0, 8_192));
    const counter = { sent: 0, chunk: chunk.byteLength };
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        if (counter.sent >= megabyte.length) return c.close();
        counter.sent += chunk.byteLength;
        c.enqueue(chunk);
      },
    });
    return { stream, counter };
  }

  it('a 1 MB body sent without a Content-Length is cut off just past 64 KiB', async () => {
    const { stream, counter } = countingStream();
    const res = await post(stream);
    expect(res.status).toBe(413);
    expect(counter.sent).toBeLessThan(MAX_BODY_BYTES + 4 * counter.chunk);
  });

  it('a Content-Length that understates the body does not get more than 64 KiB read', async () => {
    const res = await post(megabyte, { headers: { 'content-length': '100' } });
    expect(res.status).toBe(413);
    // The same lie over a stream that counts what it hands out: reading stops at the first chunk past the cap.
    const { stream, counter } = countingStream();
    const streamed = await post(stream, { headers: { 'content-length': '100' } });
    expect(streamed.status).toBe(413);
    expect(counter.sent).toBeGreaterThan(MAX_BODY_BYTES);
    expect(counter.sent).toBeLessThanOrEqual(MAX_BODY_BYTES + counter.chunk);
  });

  it('a body of just under 64 KiB is read (pretty-printed JSON is fine)', async () => {
    const padded = JSON.stringify({ registry_ids: known(10) }, null, 2).padEnd(MAX_BODY_BYTES - 10, ' ');
    expect((await post(padded)).status).toBe(200);
  });
});

describe('POST /api/v1/portfolio: counting', () => {
  it('one request is one call whatever its size; rejected requests are not counted', async () => {
    const { key } = await world.keyFor('enterprise', { monthlyLimit: 10 });
    expect((await postIds(known(500), { key })).headers.get('x-ratelimit-remaining')).toBe('9');
    expect((await postIds(known(501), { key })).status).toBe(422);
    expect((await post('{', { key })).status).toBe(400);
    expect((await post('x'.repeat(MAX_BODY_BYTES + 1), { key })).status).toBe(413);
    expect((await postIds(known(1), { key })).headers.get('x-ratelimit-remaining')).toBe('8');
  });
});
