import { afterAll, beforeAll } from 'bun:test';
import { freePort } from '../support/redis-server';
import { sampleFacility, type KeyName, type World } from '../contract/world';
import { chrootRun, podmanRun, stateDir, type Running } from './podman';

/**
 * The contract world of the container image (test/contract): the image run as shipped, on a state
 * dir of the host (`state`, for the image's own checks).
 */
export function containerWorld(image: string, name: string): () => World & { running: Running; state: string } {
  return runningWorld(async () => {
    const port = await freePort();
    const state = stateDir();
    let running: Running;
    try {
      running = await podmanRun(image, name, port, state);
    } catch (e) {
      // Some hosts let podman build but start no container (no usable OCI runtime); the image's files still run.
      console.log(`podman run could not start the container here, so the exported image runs under chroot instead:\n${String((e as Error).message).split('\n').slice(0, 3).join('\n')}`);
      running = await chrootRun(image, name, port, state);
    }
    return { running, base: `http://127.0.0.1:${port}`, state };
  });
}

/**
 * The contract world of a container that `start` has running and answering at `base`: once ready,
 * its keys are made inside it with its own CLI, as an operator would (`podman exec`).
 */
export function runningWorld<T extends { running: Running; base: string }>(start: () => Promise<T>): () => World & T {
  let world: (World & T) | null = null;
  beforeAll(async () => {
    const started = await start();
    const { running, base } = started;
    for (let i = 0; i < 100 && (await fetch(`${base}/readyz`).then((r) => r.status, () => 0)) !== 200; i++) await Bun.sleep(100);
    const make = (tier: string) => running.exec(['keys', 'create', '--tier', tier, '--print-key', '--state-dir', '/var/lib/facility-score']).trim();
    const keys = Object.fromEntries((['free', 'freeQuota', 'starter', 'platform', 'enterprise', 'capped'] as KeyName[]).map((k) => [k, make(k === 'freeQuota' ? 'free' : k === 'capped' ? 'starter' : k)])) as Record<KeyName, string>;
    let exited: Promise<number> | null = null;
    const stop = (signal?: NodeJS.Signals) => (exited ??= signal === 'SIGTERM' ? running.stop() : running.service.stop('SIGKILL'));
    world = { ...started, service: running.service, keys, facility: sampleFacility(), stop };
  }, 180_000);
  afterAll(async () => {
    await world?.stop();
  });
  return () => {
    if (!world) throw new Error('the container did not start');
    return world;
  };
}
