import { join } from 'node:path';
import { RenderPool } from '../../src/render/pool';
import { CRASH, OPEN, STARTED } from './gate-slots';

/** A render pool whose worker(s) hold each job until the test opens the gate (./gated-worker.ts). */
export function gatedPool(options: { workers?: number; queue?: number; perAccount?: number; log?: (e: Record<string, unknown>) => void } = {}) {
  const gate = new Int32Array(new SharedArrayBuffer(4 * 3));
  const logs: Record<string, unknown>[] = [];
  const pool = new RenderPool({
    workers: options.workers ?? 1,
    queue: options.queue ?? 4,
    perAccount: options.perAccount ?? 2,
    log: options.log ?? ((e) => void logs.push(e)),
    workerUrl: new URL(`file://${join(import.meta.dir, 'gated-worker.ts')}`),
    init: { gate: gate.buffer },
  });
  return {
    pool,
    logs,
    hold: () => Atomics.store(gate, OPEN, 0),
    open: () => {
      Atomics.store(gate, OPEN, 1);
      Atomics.notify(gate, OPEN);
    },
    crashNext: (on: boolean) => Atomics.store(gate, CRASH, on ? 1 : 0),
    /** Resolves once the workers have taken `n` jobs in all; fails after 20 s. */
    async started(n: number): Promise<void> {
      for (let waited = 0; Atomics.load(gate, STARTED) < n; waited += 10) {
        if (waited > 20_000) throw new Error(`a render worker took ${Atomics.load(gate, STARTED)} jobs, not ${n}: the render never reached a worker`);
        await Bun.sleep(10);
      }
    },
  };
}

/** Tracks whether a promise has settled, without awaiting it. */
export function watch<T>(p: Promise<T>): { promise: Promise<T>; settled: () => boolean } {
  let done = false;
  p.then(
    () => void (done = true),
    () => void (done = true),
  );
  return { promise: p, settled: () => done };
}
