import { describe, expect, it } from 'bun:test';
import { facility, json, makeWorld } from '../helpers';

const ROWS = [facility({ registry_id: '990000000301', fac_street: '100 MAIN ST', fac_city: 'SPRINGFIELD', fac_state: 'IL', fac_zip: '62701' })];
const FOUND = `/api/v1/demo/facility?address=${encodeURIComponent('100 Main St, Springfield, IL 62701')}`;
const MISSING = `/api/v1/demo/facility?address=${encodeURIComponent('999 Nowhere Ave, Springfield, IL 62701')}`;

function world(config: { trustedProxies?: string[] } = {}) {
  return makeWorld({ rows: ROWS, config, deps: { peerAddress: (r) => r.headers.get('x-test-peer') } });
}
const from = (peer: string, extra: Record<string, string> = {}) => ({ headers: { 'x-test-peer': peer, ...extra } });

describe('demo limit: 5 requests per IP per rolling hour', () => {
  it('the 6th request within an hour gets 429 RATE_LIMIT_EXCEEDED with an integer Retry-After', async () => {
    const w = world();
    for (let i = 1; i <= 5; i++) {
      const res = await w.call(FOUND, from('198.51.100.7'));
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-remaining')).toBe(String(5 - i));
    }
    const sixth = await w.call(FOUND, from('198.51.100.7'));
    expect(sixth.status).toBe(429);
    expect(sixth.headers.get('retry-after')).toBe('3600');
    expect(sixth.headers.get('ratelimit-policy')).toBe('"demo";q=5;w=3600');
    expect(sixth.headers.get('ratelimit')).toBe('"demo";r=0;t=3600');
    const body = await json(sixth);
    expect(body.error).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', status: 429 });
  });

  it('counts every request: found, not found and invalid alike', async () => {
    const w = world();
    expect((await w.call(FOUND, from('198.51.100.8'))).status).toBe(200);
    expect((await w.call(MISSING, from('198.51.100.8'))).status).toBe(404);
    expect((await w.call('/api/v1/demo/facility', from('198.51.100.8'))).status).toBe(422);
    expect((await w.call('/api/v1/demo/facility?address=', from('198.51.100.8'))).status).toBe(422);
    const fifth = await w.call(MISSING, from('198.51.100.8'));
    expect(fifth.status).toBe(404);
    expect(fifth.headers.get('x-ratelimit-remaining')).toBe('0');
    expect((await w.call(FOUND, from('198.51.100.8'))).status).toBe(429);
  });

  it('Retry-After counts down to the moment the oldest request leaves the window, then one slot frees', async () => {
    const w = world();
    // Requests at t0, t0+10 min, t0+20 min, t0+30 min, t0+40 min.
    for (let i = 0; i < 5; i++) {
      expect((await w.call(FOUND, from('198.51.100.9'))).status).toBe(200);
      w.clock.advance(10 * 60_000);
    }
    // Now t0+50 min: the t0 request frees its slot at t0+60 min, 600 s from now.
    const retryAfter = async () => (await w.call(FOUND, from('198.51.100.9'))).headers.get('retry-after');
    expect(await retryAfter()).toBe('600');
    w.clock.advance(5 * 60_000);
    expect(await retryAfter()).toBe('300');
    w.clock.advance(299_500);
    expect(await retryAfter()).toBe('1');
    w.clock.advance(500);
    const freed = await w.call(FOUND, from('198.51.100.9'));
    expect(freed.status).toBe(200);
    // The next slot frees when the t0+10 min request leaves: 10 minutes later.
    const again = await w.call(FOUND, from('198.51.100.9'));
    expect(again.status).toBe(429);
    expect(again.headers.get('retry-after')).toBe('600');
  });

  it('refused requests do not push the reset further away', async () => {
    const w = world();
    for (let i = 0; i < 5; i++) await w.call(FOUND, from('198.51.100.10'));
    for (let i = 0; i < 20; i++) await w.call(FOUND, from('198.51.100.10'));
    w.clock.advance(60 * 60_000);
    expect((await w.call(FOUND, from('198.51.100.10'))).status).toBe(200);
  });

  it('keeps separate budgets for separate addresses', async () => {
    const w = world();
    for (let i = 0; i < 5; i++) await w.call(FOUND, from('198.51.100.11'));
    expect((await w.call(FOUND, from('198.51.100.11'))).status).toBe(429);
    expect((await w.call(FOUND, from('198.51.100.12'))).status).toBe(200);
  });

  it('treats one IPv6 /64 as one client, so rotating the interface ID gains nothing', async () => {
    const w = world();
    for (let i = 1; i <= 5; i++) expect((await w.call(FOUND, from(`2001:db8:1:2::${i}`))).status).toBe(200);
    expect((await w.call(FOUND, from('2001:db8:1:2:ffff::9'))).status).toBe(429);
    expect((await w.call(FOUND, from('2001:db8:1:3::1'))).status).toBe(200);
  });

  it('keys an IPv4-mapped IPv6 peer as the IPv4 address', async () => {
    const w = world();
    for (let i = 0; i < 5; i++) await w.call(FOUND, from('::ffff:198.51.100.13'));
    expect((await w.call(FOUND, from('198.51.100.13'))).status).toBe(429);
  });
});

describe('X-Forwarded-For', () => {
  it('a forged X-Forwarded-For changes nothing when no proxy is trusted', async () => {
    const w = world();
    for (let i = 0; i < 5; i++) await w.call(FOUND, from('198.51.100.20', { 'x-forwarded-for': `10.0.0.${i}` }));
    expect((await w.call(FOUND, from('198.51.100.20', { 'x-forwarded-for': '10.9.9.9' }))).status).toBe(429);
  });

  it('a forged header from a peer outside the trusted proxies changes nothing', async () => {
    const w = world({ trustedProxies: ['10.0.0.0/8'] });
    for (let i = 0; i < 5; i++) await w.call(FOUND, from('198.51.100.21', { 'x-forwarded-for': `203.0.113.${i}` }));
    expect((await w.call(FOUND, from('198.51.100.21', { 'x-forwarded-for': '203.0.113.99' }))).status).toBe(429);
  });

  it('behind a trusted proxy, each forwarded client has its own budget', async () => {
    const w = world({ trustedProxies: ['10.0.0.0/8'] });
    for (let i = 0; i < 5; i++) await w.call(FOUND, from('10.1.1.1', { 'x-forwarded-for': '203.0.113.5' }));
    expect((await w.call(FOUND, from('10.1.1.1', { 'x-forwarded-for': '203.0.113.5' }))).status).toBe(429);
    expect((await w.call(FOUND, from('10.1.1.1', { 'x-forwarded-for': '203.0.113.6' }))).status).toBe(200);
  });

  it('reads right to left: a client cannot escape by prepending addresses', async () => {
    const w = world({ trustedProxies: ['10.0.0.0/8', 'fd00::/8'] });
    for (let i = 0; i < 5; i++) await w.call(FOUND, from('10.1.1.1', { 'x-forwarded-for': `1.2.3.${i}, 203.0.113.7, fd00::1` }));
    const res = await w.call(FOUND, from('10.1.1.1', { 'x-forwarded-for': '9.9.9.9, 203.0.113.7, fd00::2' }));
    expect(res.status).toBe(429);
  });
});

describe('a request without a peer address', () => {
  it('is not limited (no shared bucket for everyone) and is logged', async () => {
    const w = makeWorld({ rows: ROWS, deps: { peerAddress: () => null } });
    for (let i = 0; i < 7; i++) expect((await w.call(FOUND)).status).toBe(200);
    expect(w.logs.filter((l) => String(l.msg).includes('without a peer address')).length).toBe(7);
  });
});
