import { describe, expect, it } from 'bun:test';
import { newLifecycle } from '../../src/ops/lifecycle';
import { SqliteStateStore } from '../../src/state/sqlite-store';
import { json, makeWorld } from '../helpers';

describe('/healthz and /readyz (public, outside /api/v1)', () => {
  it('/healthz answers 200 in the envelope without a key', async () => {
    const w = makeWorld();
    const res = await w.call('/healthz');
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.data.status).toBe('ok');
    expect(body.meta.request_id).toMatch(/^req_/);
    expect(res.headers.get('x-request-id')).toBe(body.meta.request_id);
  });

  it('/readyz answers 200 with every check ok when the index reads, the area index is loaded and the state store writes', async () => {
    const w = makeWorld();
    const res = await w.call('/readyz');
    expect(res.status).toBe(200);
    expect((await json(res)).data).toEqual({ status: 'ready', checks: { index: 'ok', area_index: 'ok', state_store: 'ok' } });
  });

  it('/readyz is 503 SERVICE_UNAVAILABLE naming the state store once the store is closed', async () => {
    const store = new SqliteStateStore(':memory:');
    const w = makeWorld({ store });
    await store.close();
    const res = await w.call('/readyz');
    expect(res.status).toBe(503);
    const body = await json(res);
    expect(body.error.code).toBe('SERVICE_UNAVAILABLE');
    expect(body.error.message).toContain('state store not writable');
    expect(body.error.message).not.toContain('index');
  });

  it('/readyz is 503 naming the index once the index is closed, while /healthz stays 200', async () => {
    const w = makeWorld();
    w.deps.index.close();
    const ready = await w.call('/readyz');
    expect(ready.status).toBe(503);
    expect((await json(ready)).error.message).toContain('index unreadable');
    expect((await w.call('/healthz')).status).toBe(200);
  });

  it('/readyz is 503 "shutting down" once SIGTERM handling has set draining', async () => {
    const lifecycle = newLifecycle();
    const w = makeWorld({ deps: { lifecycle } });
    expect((await w.call('/readyz')).status).toBe(200);
    lifecycle.draining = true;
    const res = await w.call('/readyz');
    expect(res.status).toBe(503);
    expect((await json(res)).error.message).toContain('shutting down');
  });

  it.each(['/healthz', '/readyz', '/metrics'])('%s is documented in the OpenAPI document', async (path) => {
    const doc = await json(await makeWorld().call('/swagger/json'));
    expect(doc.paths[path]?.get).toBeDefined();
  });
});
