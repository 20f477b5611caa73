import { chmodSync, chownSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, spawnService, type Service } from '../support/process';
import { tempDir } from '../support/temp-dir';

/** Runs a command to completion; throws with its output when it fails. */
export function sh(cmd: string[], what = cmd.join(' ')): string {
  const p = Bun.spawnSync(cmd, { stdout: 'pipe', stderr: 'pipe' });
  if (p.exitCode !== 0) throw new Error(`${what} failed (exit ${p.exitCode}):\n${p.stderr.toString()}${p.stdout.toString()}`);
  return p.stdout.toString();
}

/** The ```sh container blocks of a markdown text (docs/operations.md's container steps). */
export function containerBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```sh container\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

/** The uid:gid the image runs as (deploy/Dockerfile's USER, scripts/container-rootfs.sh's nonroot). */
export const NONROOT = 65532;

/** deploy/Dockerfile from its last `FROM scratch` on: the published image's own stage, built here without a registry. */
export function finalStage(): string {
  const text = readFileSync(join(ROOT, 'deploy', 'Dockerfile'), 'utf8');
  const at = text.lastIndexOf('\nFROM scratch');
  if (at < 0) throw new Error('deploy/Dockerfile has no FROM scratch stage');
  return text.slice(at + 1);
}

/**
 * Builds the image from the compiled binary, offline: scripts/container-rootfs.sh lays out the root
 * filesystem in `<ctx>/rootfs`, and Dockerfile's final stage (`COPY --from=build /rootfs/ /`) takes
 * it from there, the `build` stage being that directory (`--build-context`). One layer, no base image.
 */
export function buildImage(binaryPath: string, tag: string): void {
  const ctx = tempDir('container');
  sh(['bash', join(ROOT, 'scripts', 'container-rootfs.sh'), binaryPath, join(ctx, 'rootfs')]);
  writeFileSync(join(ctx, 'Containerfile'), finalStage());
  mkdirSync(join(ctx, 'empty'));
  sh(['podman', 'build', '--quiet', '--layers=false', '--build-context', `build=${ctx}`, '-f', join(ctx, 'Containerfile'), '-t', tag, join(ctx, 'empty')], 'podman build');
}

/** A state dir on the host the image's user can write, mounted at the image's state volume. */
export function stateDir(): string {
  const dir = tempDir('container-state');
  chownSync(dir, NONROOT, NONROOT);
  return dir;
}

export type Running = { service: Service; how: string; exec: (args: string[]) => string; stop: () => Promise<number> };

function softLimit(name: string): number {
  const line = readFileSync('/proc/self/limits', 'utf8').split('\n').find((l) => l.startsWith(name));
  return Number(line?.slice(26).trim().split(/\s+/)[0]) || 1024;
}

/**
 * `podman run` of the image with its own entrypoint, user and environment, on the host's network
 * (loopback reaches it; no network setup needed). runc, because crun refuses hosts with cgroups in
 * hybrid mode; limits no higher than ours, because raising one needs CAP_SYS_RESOURCE.
 */
export async function podmanRun(image: string, name: string, port: number, state: string): Promise<Running> {
  const cmd = [
    'podman', '--runtime', 'runc', 'run', '--rm', '--name', name, '--network', 'host',
    '--ulimit', `nofile=${softLimit('Max open files')}:${softLimit('Max open files')}`, '--ulimit', 'nproc=4096:4096',
    '-v', `${state}:/var/lib/facility-score`, '-e', `FCS_PORT=${port}`, '-e', 'FCS_LOG_REQUESTS=0', image,
  ];
  const service = await spawnService(cmd, { env: process.env, cwd: tempDir('container-run'), startMs: 60_000 });
  return {
    service,
    how: 'podman run',
    exec: (args) => sh(['podman', 'exec', name, '/usr/local/bin/facility-score', ...args]),
    stop: async () => {
      sh(['podman', 'stop', '--time', '20', name]);
      return await service.proc.exited;
    },
  };
}

/**
 * Where `podman run` cannot start a container (no runtime works on the host), the image's root
 * filesystem, exported by podman, run with chroot as the image's user, with the image's environment
 * and a /proc of its own (the binary reads /proc/self/exe).
 */
export async function chrootRun(image: string, name: string, port: number, state: string): Promise<Running> {
  sh(['podman', 'create', '--name', name, image]);
  const root = tempDir('container-root');
  const tar = join(tempDir('container-tar'), 'rootfs.tar');
  try {
    sh(['podman', 'export', '--output', tar, name]);
  } finally {
    sh(['podman', 'rm', '--force', name]);
  }
  sh(['tar', '-xf', tar, '-C', root]);
  chmodSync(root, 0o755); // the image's "/" (mkdtemp made it 0700), which its user must traverse
  const volume = join(root, 'var/lib/facility-score');
  sh(['mount', '--bind', state, volume]);
  const env = JSON.parse(sh(['podman', 'image', 'inspect', '--format', '{{json .Config.Env}}', image])) as string[];
  const inRoot = (args: string[]) => ['unshare', '--mount', '--pid', '--fork', `--mount-proc=${join(root, 'proc')}`, 'chroot', `--userspec=${NONROOT}:${NONROOT}`, root, '/usr/local/bin/facility-score', ...args];
  const imageEnv = { ...Object.fromEntries(env.map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)])), FCS_PORT: String(port), FCS_LOG_REQUESTS: '0' };
  let service: Service;
  try {
    service = await spawnService(inRoot(['serve']), { env: imageEnv, cwd: root, startMs: 60_000 });
  } catch (e) {
    sh(['umount', volume]);
    throw e;
  }
  return {
    service,
    how: 'chroot into the exported image',
    exec: (args) => sh(inRoot(args)),
    stop: async () => {
      // unshare passes no signal on: the server is its forked child (pid 1 of the new pid namespace).
      const pid = service.proc.pid;
      process.kill(Number(readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(' ')[0]), 'SIGTERM');
      const code = await service.proc.exited;
      sh(['umount', volume]);
      return code;
    },
  };
}
