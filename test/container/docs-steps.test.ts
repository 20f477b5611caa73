import { afterAll, describe, expect, it } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { binary, ROOT } from '../binary/support';
import { freePort } from '../support/redis-server';
import { removeTempDirs, tempDir } from '../support/temp-dir';
import { containerBlocks } from './podman';

// docs/operations.md's container steps, run as a reader would paste them, on this host: as root
// without sudo, with podman (docs-steps-rootless.test.ts runs them as an unprivileged user). The block's ${VAR:-default}s let the test name its own image,
// container and port and use the test's binary in place of dist/facility-score.
const id = `${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
const env = { IMAGE: `localhost/fcs-docs-steps:${id}`, NAME: `fcs-docs-${id}` };

afterAll(() => {
  Bun.spawnSync(['podman', 'rm', '--force', '--time', '0', env.NAME]);
  Bun.spawnSync(['podman', 'volume', 'rm', '--force', `${env.NAME}-state`]);
  Bun.spawnSync(['podman', 'rmi', '--force', env.IMAGE]);
  removeTempDirs();
});

describe('the container steps in docs/operations.md', () => {
  const blocks = containerBlocks(readFileSync(join(ROOT, 'docs', 'operations.md'), 'utf8'));

  it('are one block that uses no sudo and puts its build context outside the checkout', () => {
    expect(blocks).toHaveLength(1);
    expect(blocks[0]).not.toContain('sudo');
    expect(blocks[0]).toContain('CTX=$(mktemp -d)');
  });

  it('build the image, start it and issue a key, as written, and the key answers a lookup on the port it names', async () => {
    const port = await freePort();
    const proc = Bun.spawn(['bash', '-euo', 'pipefail', '-c', blocks[0]!], {
      cwd: ROOT,
      env: { ...process.env, TMPDIR: tempDir('docs-steps'), BIN: binary(), IMAGE: env.IMAGE, NAME: env.NAME, PORT: String(port) },
      stdout: 'pipe',
      stderr: 'pipe',
    });
    const [out, err, exit] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    if (exit !== 0) throw new Error(`exit ${exit}\n--- stdout\n${out}\n--- stderr\n${err}`);
    const key = out.trim().split('\n').at(-1)!;
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/facility/990000914553`, { headers: { 'x-api-key': key } });
    expect(res.status).toBe(200);
  }, 300_000);
});
