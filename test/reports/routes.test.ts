import { describe, expect, it } from 'bun:test';
import { readdirSync } from 'node:fs';
import { TIERS } from '../../src/tiers';
import { DEFAULT_ROWS, json, makeWorld } from '../helpers';
import { pdfText, qpdfCheck } from './pdf-tools';
import { tempDir } from '../support/temp-dir';

const cacheDir = tempDir('report-routes');

const world = makeWorld({ config: { reportCacheDir: cacheDir } });
const accounts = Object.fromEntries(await Promise.all(TIERS.map(async (t) => [t, await world.keyFor(t)] as const)));
const keys = Object.fromEntries(TIERS.map((t) => [t, accounts[t]!.key]));
const row = DEFAULT_ROWS[1]!;
const exportOf = (id: string, init: RequestInit & { key?: string } = {}) => world.call(`/api/v1/facility/${id}/report`, { method: 'POST', key: keys.platform, ...init });
const usageOf = (tier: string) => world.store.monthlyUsage(accounts[tier]!.accountId, world.clock());

describe('POST /api/v1/facility/{registry_id}/report', () => {
  it('answers a binary PDF attachment named after the registry ID', async () => {
    const res = await exportOf(row.registry_id);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="service-report-${row.registry_id}.pdf"`);
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    const pdf = new Uint8Array(await res.arrayBuffer());
    expect(new TextDecoder().decode(pdf.subarray(0, 5))).toBe('%PDF-');
    expect(qpdfCheck(pdf).ok).toBe(true);
    const text = pdfText(pdf);
    expect(text).toContain(row.fac_name);
    expect(text).toContain(`${row.overall_score} of 100`);
    expect(text).toContain(`${row.violation_frequency} of 15`);
  });

  it.each([
    ['free', 403],
    ['starter', 403],
    ['platform', 200],
    ['enterprise', 200],
  ] as const)('the %s tier gets %i', async (tier, status) => {
    const before = await usageOf(tier);
    const res = await exportOf(row.registry_id, { key: keys[tier] });
    expect(res.status).toBe(status);
    if (status === 403) {
      const body = await json(res);
      expect(body.error).toEqual({ code: 'TIER_RESTRICTED', status: 403, message: 'The report endpoint requires a Platform plan or above' });
      expect(body.meta.request_id).toMatch(/^req_/);
      expect(await usageOf(tier)).toBe(before);
    } else {
      expect(res.headers.get('content-type')).toBe('application/pdf');
      expect(await usageOf(tier)).toBe(before + 1);
    }
  });

  it.each([
    ['no key', {}],
    ['a wrong key', { 'x-api-key': 'fcs_live_notarealkey' }],
    ['a Bearer header', { authorization: `Bearer ${'x'.repeat(20)}` }],
  ])('%s is 401 UNAUTHENTICATED', async (_name, headers) => {
    const res = await world.call(`/api/v1/facility/${row.registry_id}/report`, { method: 'POST', headers });
    expect(res.status).toBe(401);
    expect((await json(res)).error.code).toBe('UNAUTHENTICATED');
  });

  it('an unknown well-formed ID is a 404 NOT_FOUND JSON envelope, counted like a lookup', async () => {
    const before = await usageOf('platform');
    const res = await exportOf('990000009999');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/json');
    const body = await json(res);
    expect(body.error.code).toBe('NOT_FOUND');
    expect(body.error.message).toContain('990000009999');
    expect(body.meta.request_id).toMatch(/^req_/);
    expect(await usageOf('platform')).toBe(before + 1);
  });

  it('every export counts one call, whether rendered or served from the cache', async () => {
    const before = await usageOf('enterprise');
    const a = await exportOf(DEFAULT_ROWS[2]!.registry_id, { key: keys.enterprise });
    const b = await exportOf(DEFAULT_ROWS[2]!.registry_id, { key: keys.enterprise });
    expect([a.headers.get('x-cache'), b.headers.get('x-cache')]).toEqual(['MISS', 'HIT']);
    expect(await usageOf('enterprise')).toBe(before + 2);
    expect(Number(a.headers.get('x-ratelimit-remaining')) - Number(b.headers.get('x-ratelimit-remaining'))).toBe(1);
  });

  it.each([
    ['path traversal, encoded slashes', '..%2F..%2F..%2Fetc%2Fpasswd'],
    ['path traversal, encoded dots', '%2E%2E'],
    ['an ID with a NUL byte', '990000000001%00'],
    ['an ID with a file extension', '990000000001.pdf'],
    ['sixteen digits', '9'.repeat(16)],
    ['ten thousand digits', '9'.repeat(10_000)],
    ['Arabic-Indic digits', '%D9%A9%D9%A9%D9%A1'],
    ['fullwidth digits', '%EF%BC%99%EF%BC%99%EF%BC%90'],
    ['an emoji', '%F0%9F%8F%AD'],
    ['a leading space', '%20990000000001'],
    ['letters', 'ABC'],
  ])('a hostile ID (%s) is 404 NOT_FOUND, not counted, and touches no file', async (_name, id) => {
    const before = await usageOf('platform');
    const filesBefore = readdirSync(cacheDir).sort();
    const res = await exportOf(id);
    expect(res.status).toBe(404);
    expect((await json(res)).error.code).toBe('NOT_FOUND');
    expect(await usageOf('platform')).toBe(before);
    expect(readdirSync(cacheDir).sort()).toEqual(filesBefore);
  });

  it.each([
    ['an empty JSON object', { 'content-type': 'application/json' }, '{}'],
    ['malformed JSON', { 'content-type': 'application/json' }, '{"registry_id": '],
    ['a form', { 'content-type': 'application/x-www-form-urlencoded' }, 'a=1&b=2'],
    ['a megabyte of binary', { 'content-type': 'application/octet-stream' }, new Uint8Array(1 << 20).fill(0xff)],
  ])('a request body (%s) is ignored: the route defines none', async (_name, headers, body) => {
    const res = await exportOf(row.registry_id, { headers, body });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
  });

  it('GET on the report path is 405 and names POST', async () => {
    const res = await world.call(`/api/v1/facility/${row.registry_id}/report`, { key: keys.platform });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toContain('POST');
  });

  it('cache file names are SHA-256 hex digests, never anything from the request', async () => {
    // self-contained: make the entries this test inspects, whatever ran before it
    for (const r of [DEFAULT_ROWS[0]!, row]) expect((await exportOf(r.registry_id)).status).toBe(200);
    const names = readdirSync(cacheDir);
    expect(names.length).toBeGreaterThan(0);
    expect(names.length).toBeGreaterThanOrEqual(2);
    for (const n of names) expect(n).toMatch(/^[0-9a-f]{64}\.pdf$/);
  });
});
