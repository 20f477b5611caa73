import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { binary, sampleFacts } from '../binary/support';
import { freePort } from '../support/redis-server';
import { removeTempDirs } from '../support/temp-dir';
import { buildImage, chrootRun, NONROOT, podmanRun, sh, stateDir, type Running } from './podman';

// deploy/Dockerfile's image, built from the binary the binary tests use (one build per run) with
// Debian's podman, offline: no registry is reachable here, and the image needs none.
const id = `${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
const IMAGE = `localhost/facility-score-test:${id}`;
const NAME = `fcs-test-${id}`;

beforeAll(() => buildImage(binary(), IMAGE), 300_000);
afterAll(() => {
  Bun.spawnSync(['podman', 'rm', '--force', '--time', '0', NAME]);
  Bun.spawnSync(['podman', 'rmi', '--force', IMAGE]);
  removeTempDirs();
});

/** Every file (not directory) under `dir`, relative, sorted. */
function filesUnder(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).filter((f) => statSync(join(dir, f)).isFile()).sort();
}

/** What `ldd` says the binary links (the loader and libraries, as absolute paths). */
function linked(): string[] {
  return sh(['ldd', binary()]).split('\n').flatMap((l) => /(?:=>\s*)?(\/\S+)\s+\(0x/.exec(l)?.[1] ?? []);
}

describe('the container image (deploy/Dockerfile)', () => {
  it('holds the binary, the glibc files it links at their own paths and a nonroot user, and nothing else: one layer, no base image', () => {
    const [info] = JSON.parse(sh(['podman', 'image', 'inspect', IMAGE])) as any[];
    expect(info.Config).toMatchObject({ User: `${NONROOT}:${NONROOT}`, Entrypoint: ['/usr/local/bin/facility-score'], Cmd: ['serve'] });
    expect(info.Config.Env).toEqual(expect.arrayContaining(['FCS_HOST=0.0.0.0', 'FCS_PORT=8080', 'FCS_STATE_DIR=/var/lib/facility-score']));
    expect(Object.keys(info.Config.Volumes)).toEqual(['/var/lib/facility-score']);
    expect(info.RootFS.Layers).toHaveLength(1);
    const mount = sh(['podman', 'image', 'mount', IMAGE]).trim();
    try {
      const libs = linked().map((p) => relative('/', p));
      expect(libs.length).toBeGreaterThanOrEqual(2); // at least libc and the loader
      expect(filesUnder(mount)).toEqual(['etc/group', 'etc/passwd', ...libs, 'usr/local/bin/facility-score'].sort());
      expect(statSync(join(mount, 'var/lib/facility-score')).uid).toBe(NONROOT);
      expect(statSync(join(mount, 'usr/local/bin/facility-score')).size).toBe(statSync(binary()).size);
    } finally {
      sh(['podman', 'image', 'unmount', IMAGE]);
    }
  });

  it('runs as its own user: /readyz and a facility lookup answer on loopback, its state lands in the volume, SIGTERM stops it cleanly', async () => {
    const port = await freePort();
    const state = stateDir();
    let running: Running;
    try {
      running = await podmanRun(IMAGE, NAME, port, state);
    } catch (e) {
      // Some hosts let podman build but start no container (no usable OCI runtime); the image's files still run.
      console.log(`podman run could not start the container here, so the exported image runs under chroot instead:\n${String((e as Error).message).split('\n').slice(0, 3).join('\n')}`);
      running = await chrootRun(IMAGE, NAME, port, state);
    }
    let stopped = false;
    try {
      const base = `http://127.0.0.1:${port}`;
      let ready = 0;
      for (let i = 0; i < 100 && ready !== 200; i++) ready = await fetch(`${base}/readyz`).then((r) => r.status, () => 0).then((s) => (s === 200 ? s : Bun.sleep(100).then(() => s)));
      expect(ready).toBe(200);
      const key = running.exec(['keys', 'create', '--tier', 'starter', '--print-key', '--state-dir', '/var/lib/facility-score']).trim();
      const { row } = sampleFacts();
      const res = await fetch(`${base}/api/v1/facility/${row.registry_id}`, { headers: { 'x-api-key': key } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as any).data.registry_id).toBe(row.registry_id);
      // The embedded sample's file copy, written by uid 65532 into the volume and used in place.
      const copies = readdirSync(join(state, 'embedded-sample'));
      expect(copies).toEqual([expect.stringMatching(/^sample-[0-9a-f]{16}\.sqlite$/)]);
      expect(statSync(join(state, 'embedded-sample', copies[0]!)).uid).toBe(NONROOT);
      expect(running.service.lines.filter((l) => l.level === 'warn' || l.level === 'error')).toEqual([]);
      expect(await running.stop()).toBe(0);
      stopped = true;
      expect(running.service.lines.at(-1)).toMatchObject({ msg: 'stopped', clean: true });
    } finally {
      if (!stopped) await running.service.stop('SIGKILL');
    }
  }, 120_000);
});
