import { afterAll, describe, expect, it } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { binary, ROOT } from '../binary/support';
import { envelopeContract } from '../contract/access';
import { demoLimitContract } from '../contract/demo-limit';
import { jsonLogsContract } from '../contract/logs';
import { webPageContract } from '../contract/web-page';
import { freePort } from '../support/redis-server';
import { containerBlocks, NONROOT } from './podman';
import { attach, createRootlessUser, type RootlessUser } from './rootless';
import { runningWorld } from './world';

// docs/operations.md's container steps, run as written by an unprivileged user with rootless
// podman: a user made for the run (useradd gives it subordinate ids), holding a copy of just the
// files the block reads, the binary at the block's default dist/facility-score. The container it
// starts then answers the contract's smoke subset, as the image's own test does.
const id = `${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
const env = { IMAGE: `localhost/fcs-rootless:${id}`, NAME: `fcs-rootless-${id}` };
const block = containerBlocks(readFileSync(join(ROOT, 'docs', 'operations.md'), 'utf8'))[0]!;

let user: RootlessUser | null = null;
let printed = '';
afterAll(() => user?.remove());

describe('the container steps in docs/operations.md, run by an unprivileged user with rootless podman', () => {
  const world = runningWorld(async () => {
    const port = await freePort();
    user = createRootlessUser();
    const checkout = user.stage({
      'scripts/container-rootfs.sh': join(ROOT, 'scripts', 'container-rootfs.sh'),
      'deploy/Dockerfile': join(ROOT, 'deploy', 'Dockerfile'),
      'dist/facility-score': binary(),
    });
    const proc = Bun.spawn(user.as(['bash', '-euo', 'pipefail', '-c', block], { ...env, PORT: String(port) }), { cwd: checkout, stdout: 'pipe', stderr: 'pipe' });
    const [out, err, exit] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    if (exit !== 0) throw new Error(`the block failed as ${user.name} (exit ${exit})\n--- stdout\n${out}\n--- stderr\n${err}`);
    printed = out;
    return { running: await attach(user, env.NAME), base: `http://127.0.0.1:${port}` };
  });

  it("run the server under the user's subordinate id for the image's 65532, not as root, and leave no build context behind", () => {
    world();
    const u = user!;
    const pid = Number(u.sh(['podman', 'inspect', '--format', '{{.State.Pid}}', env.NAME]).trim());
    const uids = /^Uid:\s+(.*)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]!.split(/\s+/).map(Number);
    expect(uids).toEqual(Array(4).fill(u.subuid + NONROOT - 1));
    expect(readdirSync(join(u.home, 'tmp'))).toEqual([]);
  });

  it('print a key that answers a lookup', async () => {
    const w = world();
    const key = printed.trim().split('\n').at(-1)!;
    const res = await fetch(`${w.base}/api/v1/facility/${w.facility.registry_id}`, { headers: { 'x-api-key': key } });
    expect(res.status).toBe(200);
  });

  envelopeContract(world);
  demoLimitContract(world);
  webPageContract(world);
  jsonLogsContract(world); // last: it stops the container with SIGTERM and expects exit 0
});
