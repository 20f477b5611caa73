import { describe, expect, it } from 'bun:test';
import { makeWorld } from '../helpers';
import { observed } from './observed';
import { tempDir } from '../support/temp-dir';


function accessLines(logs: Record<string, unknown>[]) {
  return logs.filter((l) => l.msg === 'request');
}

const cacheDir = tempDir('ops-cache');

describe('structured JSON access log', () => {
  it('one line per request: request_id (= X-Request-Id), method, route pattern, status, duration, tier and account', async () => {
    const w = makeWorld({ config: { logRequests: true } });
    const { key, accountId } = await w.keyFor('starter');
    const res = await w.call('/api/v1/facility/990000000001', { key });
    await observed(w.deps, 1);
    const lines = accessLines(w.logs);
    expect(lines).toHaveLength(1);
    const line = lines[0]!;
    expect(line).toMatchObject({
      level: 'info',
      request_id: res.headers.get('x-request-id'),
      method: 'GET',
      route: '/api/v1/facility/:registry_id',
      status: 200,
      tier: 'starter',
      account_id: accountId,
      error_code: null,
    });
    expect(typeof line.duration_ms).toBe('number');
    expect(line.duration_ms as number).toBeGreaterThanOrEqual(0);
  });

  it('never carries the key, the raw path (facility IDs) or the query string (addresses)', async () => {
    const w = makeWorld({ config: { logRequests: true } });
    const { key } = await w.keyFor('free');
    await w.call('/api/v1/facility/990000000002', { key });
    await w.call('/api/v1/facility/990000000003', { key: `${key}x` });
    await w.call('/api/v1/demo/facility?address=100%20Main%20St%20Springfield%20IL%2062701');
    await observed(w.deps, 3);
    const text = JSON.stringify(accessLines(w.logs));
    expect(accessLines(w.logs)).toHaveLength(3);
    expect(text).not.toContain(key);
    expect(text).not.toContain('99000000000');
    expect(text).not.toContain('Main');
  });

  it('errors are logged with status and code; an unknown route as "(unmatched)"', async () => {
    const w = makeWorld({ config: { logRequests: true } });
    await w.call('/api/v1/facility/990000000001', { key: 'fcs_live_wrong' });
    await w.call('/api/v2/whatever/123');
    await observed(w.deps, 2);
    const [unauth, unknown] = accessLines(w.logs);
    expect(unauth).toMatchObject({ route: '/api/v1/facility/:registry_id', status: 401, error_code: 'UNAUTHENTICATED', tier: null, account_id: null });
    expect(unknown).toMatchObject({ route: '(unmatched)', status: 404, error_code: 'NOT_FOUND' });
  });

  it('successful probes and scrapes are not logged; a failing probe is', async () => {
    const w = makeWorld({ config: { logRequests: true } });
    await w.call('/healthz');
    await w.call('/readyz');
    await w.call('/metrics');
    await observed(w.deps, 3);
    expect(accessLines(w.logs)).toHaveLength(0);
    w.deps.index.close();
    await w.call('/readyz');
    await observed(w.deps, 4);
    expect(accessLines(w.logs)).toMatchObject([{ route: '/readyz', status: 503, error_code: 'SERVICE_UNAVAILABLE' }]);
  });

  it('logRequests=false (FCS_LOG_REQUESTS=0) writes no access lines but still counts metrics', async () => {
    const w = makeWorld({ config: { logRequests: false } });
    await w.call('/api/v1/status');
    await observed(w.deps, 1);
    expect(accessLines(w.logs)).toHaveLength(0);
    const text = await (await w.call('/metrics')).text();
    expect(text).toContain('fcs_http_requests_total{method="GET",route="/api/v1/status",status="200"} 1');
  });

  it('a PDF report is logged with its cache outcome, and /metrics counts one MISS then one HIT', async () => {
    const w = makeWorld({ config: { logRequests: true, reportCacheDir: cacheDir } });
    const { key } = await w.keyFor('platform');
    const diskEvent = (text: string, event: string) => Number(text.match(new RegExp(`^fcs_report_cache_disk_events_total\\{event="${event}"\\} (\\d+)$`, 'm'))?.[1]);
    const storesBefore = diskEvent(await (await w.call('/metrics')).text(), 'stores');
    const first = await w.call('/api/v1/facility/990000000001/report', { method: 'POST', key });
    const second = await w.call('/api/v1/facility/990000000001/report', { method: 'POST', key });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect([first.headers.get('x-cache'), second.headers.get('x-cache')]).toEqual(['MISS', 'HIT']);
    await observed(w.deps, 3); // the first /metrics scrape, then the two reports
    expect(accessLines(w.logs).map((l) => l.cache)).toEqual(['MISS', 'HIT']);
    const text = await (await w.call('/metrics')).text();
    expect(text).toContain('fcs_report_cache_total{outcome="MISS"} 1');
    expect(text).toContain('fcs_report_cache_total{outcome="HIT"} 1');
    // The disk side: the MISS stored one file; every event of the process's cache is exported as is.
    expect(diskEvent(text, 'stores')).toBe(storesBefore + 1);
    for (const [event, n] of Object.entries(w.deps.reportCache!.stats)) expect(diskEvent(text, event)).toBe(n);
    expect(text).toContain('# TYPE fcs_report_cache_disk_events_total counter');
  });
});
