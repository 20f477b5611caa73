import { describe, expect, it } from 'bun:test';
import { Counter, Histogram, Registry } from '../../src/ops/metrics';
import { json, makeWorld } from '../helpers';
import { observed } from './observed';

/** Value of one sample line (`name{labels} value`) in a scrape, or undefined. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    const m = /^([a-z_:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = (m[2] ?? '').split(/,(?=[a-z_]+=")/).filter(Boolean);
    if (want.length === have.length && want.every((w) => have.includes(w))) return Number(m[3]);
  }
  return undefined;
}


describe('Prometheus registry', () => {
  it('renders cumulative histogram buckets, +Inf, _sum and _count', () => {
    const r = new Registry();
    const h = r.register(new Histogram('t_seconds', 'test', ['route'], [0.1, 1]));
    for (const v of [0.05, 0.5, 0.5, 3]) h.observe({ route: '/a' }, v);
    const text = r.render();
    expect(sample(text, 't_seconds_bucket', { route: '/a', le: '0.1' })).toBe(1);
    expect(sample(text, 't_seconds_bucket', { route: '/a', le: '1' })).toBe(3);
    expect(sample(text, 't_seconds_bucket', { route: '/a', le: '+Inf' })).toBe(4);
    expect(sample(text, 't_seconds_sum', { route: '/a' })).toBeCloseTo(4.05, 10);
    expect(sample(text, 't_seconds_count', { route: '/a' })).toBe(4);
    expect(text).toContain('# TYPE t_seconds histogram');
  });

  it('escapes backslashes, quotes and newlines in label values', () => {
    const r = new Registry();
    r.register(new Counter('c_total', 'test', ['v'])).inc({ v: 'a"b\\c\nd' });
    expect(r.render()).toContain('c_total{v="a\\"b\\\\c\\nd"} 1');
  });
});

describe('GET /metrics', () => {
  it('counts requests by method, route pattern and status, never by raw path', async () => {
    const w = makeWorld();
    const { key } = await w.keyFor('starter');
    await w.call('/api/v1/facility/990000000001', { key });
    await w.call('/api/v1/facility/990000000002', { key });
    await w.call('/api/v1/facility/990000009999', { key });
    await w.call('/no/such/990000000001');
    await observed(w.deps, 4);
    const res = await w.call('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toStartWith('text/plain; version=0.0.4');
    const text = await res.text();
    const route = '/api/v1/facility/:registry_id';
    expect(sample(text, 'fcs_http_requests_total', { method: 'GET', route, status: '200' })).toBe(2);
    expect(sample(text, 'fcs_http_requests_total', { method: 'GET', route, status: '404' })).toBe(1);
    expect(sample(text, 'fcs_http_requests_total', { method: 'GET', route: '(unmatched)', status: '404' })).toBe(1);
    expect(sample(text, 'fcs_http_request_duration_seconds_count', { method: 'GET', route, status: '200' })).toBe(2);
    expect(text).not.toContain('990000000001');
    expect(text).not.toContain(key);
  });

  it('counts quota rejections by code: the 11th call of a Free key is one QUOTA_EXHAUSTED', async () => {
    const w = makeWorld();
    const { key } = await w.keyFor('free');
    for (let i = 0; i < 11; i++) await w.call('/api/v1/facility/990000000001', { key });
    const capped = await w.keyFor('starter', { monthlyLimit: 1 });
    for (let i = 0; i < 3; i++) await w.call('/api/v1/facility/990000000001', { key: capped.key });
    await observed(w.deps, 14);
    const text = await (await w.call('/metrics')).text();
    const route = '/api/v1/facility/:registry_id';
    expect(sample(text, 'fcs_quota_rejections_total', { code: 'QUOTA_EXHAUSTED', route })).toBe(1);
    expect(sample(text, 'fcs_quota_rejections_total', { code: 'RATE_LIMIT_EXCEEDED', route })).toBe(2);
    expect(sample(text, 'fcs_http_requests_total', { method: 'GET', route, status: '402' })).toBe(1);
  });

  it('a method outside the known set is labelled OTHER, so clients cannot mint series', async () => {
    const w = makeWorld();
    await w.call('/api/v1/status', { method: 'PROPFIND' });
    await observed(w.deps, 1);
    const text = await (await w.call('/metrics')).text();
    expect(text).not.toContain('PROPFIND');
    expect(text).toMatch(/fcs_http_requests_total\{method="OTHER",route="[^"]*",status="\d{3}"\} 1/);
  });

  it('states the build and the index being served', async () => {
    const w = makeWorld();
    const text = await (await w.call('/metrics')).text();
    expect(sample(text, 'fcs_index_facilities', { dataset: 'test fixture', as_of: '2026-11-01', fictitious: 'true' })).toBe(3);
    expect(text).toMatch(/^fcs_build_info\{version="[^"]+",commit="[^"]+",score_method="[^"]+"\} 1$/m);
    expect(sample(text, 'process_resident_memory_bytes', {})).toBeGreaterThan(1_000_000);
  });

  it('with a metrics token configured, needs `Authorization: Bearer <token>`', async () => {
    const token = 'scrape-token-0123456789';
    const w = makeWorld({ config: { metricsToken: token } });
    const none = await w.call('/metrics');
    expect(none.status).toBe(401);
    expect((await json(none)).error.code).toBe('UNAUTHENTICATED');
    expect((await w.call('/metrics', { headers: { authorization: 'Bearer wrong-token-0123456789' } })).status).toBe(401);
    const ok = await w.call('/metrics', { headers: { authorization: `Bearer ${token}` } });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('fcs_http_requests_total');
  });
});
