/**
 * The render worker (src/render/worker.ts) behind a gate the test holds: a job waits while
 * `OPEN` is 0, `STARTED` counts the jobs taken, and a job met while `CRASH` is 1 kills the worker
 * with an uncaught error instead of being answered.
 */
import '../../src/render/worker';
import { CRASH, OPEN, STARTED } from './gate-slots';

declare const self: Worker;

const real = self.onmessage!;
let gate: Int32Array | null = null;

self.onmessage = (event: MessageEvent) => {
  const data = event.data as { init?: { gate: SharedArrayBuffer } };
  if (data.init) {
    gate = new Int32Array(data.init.gate);
    return;
  }
  Atomics.add(gate!, STARTED, 1);
  while (Atomics.load(gate!, OPEN) === 0) Atomics.wait(gate!, OPEN, 0, 50);
  if (Atomics.load(gate!, CRASH) === 1) {
    setTimeout(() => {
      throw new Error('render worker crashed on purpose');
    });
    return;
  }
  return real.call(self, event);
};
