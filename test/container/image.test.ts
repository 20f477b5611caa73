import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { binary } from '../binary/support';
import { envelopeContract } from '../contract/access';
import { demoLimitContract } from '../contract/demo-limit';
import { jsonLogsContract } from '../contract/logs';
import { webPageContract } from '../contract/web-page';
import { removeTempDirs } from '../support/temp-dir';
import { buildImage, NONROOT, sh } from './podman';
import { containerWorld } from './world';

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
});

// The contract's smoke subset (test/contract), served by the image: envelopes, the demo limit, the web page, JSON-only logs.
describe('the HTTP contract, served by the container image', () => {
  const world = containerWorld(IMAGE, NAME);

  it('runs as its own user, its state in the volume: the embedded sample\'s file copy is written there and used in place', async () => {
    const w = world();
    expect((await fetch(`${w.base}/readyz`)).status).toBe(200);
    const copies = readdirSync(join(w.state, 'embedded-sample'));
    expect(copies).toEqual([expect.stringMatching(/^sample-[0-9a-f]{16}\.sqlite$/)]);
    expect(statSync(join(w.state, 'embedded-sample', copies[0]!)).uid).toBe(NONROOT);
    expect(w.service.lines.filter((l) => l.level === 'warn' || l.level === 'error')).toEqual([]);
  });

  envelopeContract(world);
  demoLimitContract(world);
  webPageContract(world);
  jsonLogsContract(world); // last: it stops the container with SIGTERM and expects exit 0
});
