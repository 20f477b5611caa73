import { describe, expect, it } from 'bun:test';
import { REPORT_TTL_MS } from '../../src/reports/cache';
import type { Tier } from '../../src/tiers';
import { DEFAULT_ROWS, FIXED_NOW, json, makeWorld } from '../helpers';
import { rng } from '../area/fixtures';
import { pdfText } from '../reports/pdf-tools';
import { tempDir } from '../support/temp-dir';
import { scatter } from './fixtures';

// A cached site report PDF is found by a key made of the checked body and the located site, so
// everything before the handler runs on a hit as on a render: this file holds the hit to that.
const HOUSTON = { lat: 29.7604, lng: -95.3698 };
const rows = [...DEFAULT_ROWS, ...scatter(rng(5), HOUSTON, 120, 1.2, 990_500_000_000).map((g) => g.row)];

function siteWorld() {
  const world = makeWorld({ rows, config: { reportCacheDir: tempDir('site-report-hit') } });
  const pdf = (key: string | undefined, body: unknown) =>
    world.call('/api/v1/site-report?format=pdf', { method: 'POST', key, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const usageOf = (accountId: string) => world.store.monthlyUsage(accountId, world.clock());
  /** A key of `tier` whose first PDF of `body` was rendered and stored (MISS) by a Platform key. */
  const cached = async (body: unknown, tier: Tier = 'platform', monthlyLimit: number | null = null) => {
    const renderer = await world.keyFor('platform');
    expect((await pdf(renderer.key, body)).headers.get('x-cache')).toBe('MISS');
    return world.keyFor(tier, { monthlyLimit });
  };
  return { world, pdf, usageOf, cached };
}

describe('a cached site report PDF is still a counted, checked call', () => {
  it('each hit counts one call, and X-RateLimit-Remaining goes down by one', async () => {
    const { pdf, usageOf, cached } = siteWorld();
    const caller = await cached(HOUSTON);
    const a = await pdf(caller.key, HOUSTON);
    const b = await pdf(caller.key, HOUSTON);
    expect([a.headers.get('x-cache'), b.headers.get('x-cache')]).toEqual(['HIT', 'HIT']);
    expect(await usageOf(caller.accountId)).toBe(2);
    expect(Number(a.headers.get('x-ratelimit-remaining')) - Number(b.headers.get('x-ratelimit-remaining'))).toBe(1);
  });

  it.each(['free', 'starter'] as const)('a %s key gets 403 TIER_RESTRICTED for a site whose PDF is cached, not counted', async (tier) => {
    const { pdf, usageOf, cached } = siteWorld();
    const caller = await cached(HOUSTON, tier);
    const res = await pdf(caller.key, HOUSTON);
    expect(res.status).toBe(403);
    expect(res.headers.get('x-cache')).toBeNull();
    expect((await json(res)).error).toEqual({ code: 'TIER_RESTRICTED', status: 403, message: 'The site report endpoint requires a Platform plan or above' });
    expect(await usageOf(caller.accountId)).toBe(0);
  });

  it('the account that rendered the PDF, moved down to Starter, is refused its own cached copy', async () => {
    const { world, pdf, usageOf } = siteWorld();
    const k = await world.keyFor('platform');
    expect((await pdf(k.key, HOUSTON)).headers.get('x-cache')).toBe('MISS');
    await world.store.setTier(k.accountId, 'starter');
    const res = await pdf(k.key, HOUSTON);
    expect(res.status).toBe(403);
    expect((await json(res)).error.code).toBe('TIER_RESTRICTED');
    expect(await usageOf(k.accountId)).toBe(1);
  });

  it('a key at its monthly limit gets 429 RATE_LIMIT_EXCEEDED in the error envelope, not the cached PDF', async () => {
    const { pdf, usageOf, cached } = siteWorld();
    const caller = await cached(HOUSTON, 'platform', 1);
    expect((await pdf(caller.key, HOUSTON)).headers.get('x-cache')).toBe('HIT');
    const over = await pdf(caller.key, HOUSTON);
    expect(over.status).toBe(429);
    expect(over.headers.get('content-type')).toContain('application/json');
    expect(over.headers.get('retry-after')).toMatch(/^\d+$/);
    const body = await json(over);
    expect(body.error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(body.meta.request_id).toMatch(/^req_/);
    expect(await usageOf(caller.accountId)).toBe(1);
  });

  it('without a key a cached site is 401 UNAUTHENTICATED', async () => {
    const { pdf, cached } = siteWorld();
    await cached(HOUSTON);
    const res = await pdf(undefined, HOUSTON);
    expect(res.status).toBe(401);
    expect((await json(res)).error.code).toBe('UNAUTHENTICATED');
  });

  it.each([
    ['an unknown field', { ...HOUSTON, radius: 1 }, 400, 'INVALID_BODY'],
    ['a distance out of range', { ...HOUSTON, search_distances: { snc: 3 } }, 422, 'VALIDATION_ERROR'],
  ] as const)('a cached site with a bad body (%s) is the 4xx error, not counted', async (_name, body, status, code) => {
    const { pdf, usageOf, cached } = siteWorld();
    const caller = await cached(HOUSTON);
    const res = await pdf(caller.key, body);
    expect(res.status).toBe(status);
    expect((await json(res)).error.code).toBe(code);
    expect(await usageOf(caller.accountId)).toBe(0);
  });
});

describe('what a hit serves', () => {
  it('an address is located as on the render: the same facility, the same bytes; the same point given as coordinates is an entry of its own', async () => {
    const { world, pdf } = siteWorld();
    const address = { address: '100 Main Street, Houston, TX 77002' };
    const [renderer, caller] = [await world.keyFor('platform'), await world.keyFor('enterprise')];
    const render = await pdf(renderer.key, address);
    const hit = await pdf(caller.key, address);
    expect([render.headers.get('x-cache'), hit.headers.get('x-cache')]).toEqual(['MISS', 'HIT']);
    expect(hit.headers.get('content-disposition')).toBe('attachment; filename="site-report-29.7604_-95.3698.pdf"');
    const bytes = new Uint8Array(await hit.arrayBuffer());
    expect(bytes).toEqual(new Uint8Array(await render.arrayBuffer()));
    const text = pdfText(bytes);
    expect(text).toContain('100 Main Street, Houston, TX 77002');
    expect(text).toContain('990000000003');
    // the facility filed at that address stands at HOUSTON: same point, but the report prints how it was found
    expect((await pdf(caller.key, HOUSTON)).headers.get('x-cache')).toBe('MISS');
  });

  it('is served for 24 hours after the render, then rendered afresh', async () => {
    const { world, pdf, cached } = siteWorld();
    const caller = await cached(HOUSTON);
    world.clock.set(FIXED_NOW + REPORT_TTL_MS - 1);
    expect((await pdf(caller.key, HOUSTON)).headers.get('x-cache')).toBe('HIT');
    world.clock.set(FIXED_NOW + REPORT_TTL_MS);
    const fresh = await pdf(caller.key, HOUSTON);
    expect(fresh.headers.get('x-cache')).toBe('MISS');
    expect(pdfText(new Uint8Array(await fresh.arrayBuffer()))).toContain('2026-11-16 12:00 UTC');
  });
});
