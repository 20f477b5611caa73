import type { AppDeps } from '../../src/api/deps';

/** Waits until the app has observed `n` finished requests: onAfterResponse runs after app.handle resolves. */
export async function observed(deps: AppDeps, n: number): Promise<void> {
  const requests = deps.metrics.requests;
  for (let i = 0; i < 500 && requests.total() < n; i++) await Bun.sleep(2);
  if (requests.total() !== n) throw new Error(`expected ${n} observed requests, saw ${requests.total()}`);
}
