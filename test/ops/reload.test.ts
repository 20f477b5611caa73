import { describe, expect, it } from 'bun:test';
import { connect } from 'node:net';
import { createApp } from '../../src/api/app';
import { SpatialHandle } from '../../src/area/spatial-handle';
import { buildSpatialIndex } from '../../src/index/area/spatial-columns';
import { makeConfig } from '../../src/config';
import { processParts } from '../../src/api/deps';
import type { FacilityIndex } from '../../src/index/facility-index';
import { newLifecycle } from '../../src/ops/lifecycle';
import { ServiceMetrics } from '../../src/ops/service-metrics';
import { ServiceProcess } from '../../src/cli/service-process';
import { SqliteStateStore } from '../../src/state/sqlite-store';
import { DEFAULT_ROWS, memoryIndex } from '../helpers';

describe('SIGHUP reload when the new app cannot be built or bound', () => {
  it('refuses the reload, closes the index it opened, counts a failure and keeps serving the previous index', async () => {
    const config = makeConfig({ port: 0, host: '127.0.0.1', logRequests: false });
    const store = new SqliteStateStore(':memory:');
    const metrics = new ServiceMetrics();
    const lifecycle = newLifecycle();
    const logs: Record<string, unknown>[] = [];
    const log = (e: Record<string, unknown>) => void logs.push(e);
    let apps = 0;
    const opened: FacilityIndex[] = [];
    const service = await ServiceProcess.start(
      {
        config, store, log, metrics, lifecycle,
        makeApp: (index, spatial) => {
          if (apps++ > 0) throw new Error('cannot bind');
          return createApp({ ...processParts(config, Date.now, log), config, index, spatial, store, clock: Date.now, log, metrics, lifecycle });
        },
        prepareSpatial: (index) => SpatialHandle.of(buildSpatialIndex(index)),
        openIndex: async () => {
          const ix = memoryIndex(DEFAULT_ROWS, { dataset_name: 'generation-B' });
          opened.push(ix);
          return ix;
        },
      },
      memoryIndex(DEFAULT_ROWS, { dataset_name: 'generation-A' }),
    );
    try {
      expect(await service.reload()).toBe(false);
      expect(logs.find((l) => String(l.msg).startsWith('reload failed at hand-over'))).toMatchObject({ level: 'error', dataset: 'generation-A' });
      expect(metrics.indexReloads.get({ result: 'failed' })).toBe(1);
      expect(() => opened[0]!.answers()).toThrow();
      const status = (await (await fetch(`http://127.0.0.1:${service.port}/api/v1/status`)).json()) as any;
      expect(status.data.dataset.dataset_name).toBe('generation-A');
    } finally {
      expect(await service.shutdown('SIGTERM')).toBe(0);
    }
  });
});

describe('SIGTERM with a request in flight on a kept-alive connection', () => {
  it('answers it with Connection: close, so the client does not reuse a connection about to close', async () => {
    const config = makeConfig({ port: 0, host: '127.0.0.1', logRequests: false });
    const store = new SqliteStateStore(':memory:');
    const lifecycle = newLifecycle();
    const log = () => {};
    const service = await ServiceProcess.start(
      {
        config, store, log, metrics: new ServiceMetrics(), lifecycle,
        // The service's own app, with one slow route added to hold a request open across the signal.
        makeApp: (index, spatial) =>
          createApp({ ...processParts(config, Date.now, log), config, index, spatial, store, clock: Date.now, log, metrics: new ServiceMetrics(), lifecycle }).get('/slow', async () => {
            await Bun.sleep(300);
            return 'done';
          }) as unknown as ReturnType<typeof createApp>,
        prepareSpatial: (index) => SpatialHandle.of(buildSpatialIndex(index)),
        openIndex: async () => memoryIndex(DEFAULT_ROWS),
      },
      memoryIndex(DEFAULT_ROWS),
    );
    const sock = connect(service.port, '127.0.0.1');
    let answer = '';
    sock.on('data', (d: Buffer) => (answer += d.toString()));
    await new Promise((resolve) => sock.once('connect', resolve));
    sock.write('GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await Bun.sleep(100);
    const stopped = service.shutdown('SIGTERM');
    await new Promise((resolve) => sock.once('close', resolve));
    expect(await stopped).toBe(0);
    expect(answer).toStartWith('HTTP/1.1 200');
    expect(answer.split('\r\n\r\n')[0]).toMatch(/\r\nconnection: close/i);
  });
});
