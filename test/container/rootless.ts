import { chmodSync, chownSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { spawnService } from '../support/process';
import { alive } from '../support/temp-dir';
import type { Running } from './podman';

// An unprivileged user of this host, made for one test run, that runs podman rootless: its own
// storage, runtime dir and temp dir under its home, 65536 subordinate ids from useradd. Named after
// the run's pid, so runs side by side never share one; users of runs that died are removed first.
const PREFIX = 'fcs-rl-';

export type RootlessUser = {
  name: string;
  uid: number;
  /** The first of the user's subordinate uids (/etc/subuid): the container's uid n > 0 is this + n - 1 on the host. */
  subuid: number;
  home: string;
  /** The command line that runs `cmd` as the user, with only the user's own environment plus `env`. */
  as: (cmd: string[], env?: Record<string, string>) => string[];
  /** Runs a command as the user to completion; throws with its output when it fails. */
  sh: (cmd: string[]) => string;
  /** Copies host files into a fresh directory the user owns (`{ relative path: source }`); returns it. */
  stage: (files: Record<string, string>) => string;
  /** Removes the user's containers, ends its processes and deletes the user with its home. */
  remove: () => void;
};

function run(cmd: string[]): { code: number; out: string } {
  const p = Bun.spawnSync(cmd, { stdout: 'pipe', stderr: 'pipe' });
  return { code: p.exitCode ?? -1, out: `${p.stderr.toString()}${p.stdout.toString()}` };
}

function passwd(name: string): { uid: number; gid: number; home: string } | null {
  const f = readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith(`${name}:`))?.split(':');
  return f ? { uid: Number(f[2]), gid: Number(f[3]), home: f[5]! } : null;
}

/** The first id of the user's range in /etc/subuid or /etc/subgid, when the range covers the image's 65532. */
function subordinate(file: string, name: string): number | null {
  const f = existsSync(file) ? readFileSync(file, 'utf8').split('\n').find((l) => l.startsWith(`${name}:`))?.split(':') : undefined;
  return f && Number(f[2]) >= 65536 ? Number(f[1]) : null;
}

/** Pids of the live processes whose real uid is one of `ours`. */
function processesOf(ours: (uid: number) => boolean): number[] {
  return readdirSync('/proc').filter((d) => /^\d+$/.test(d)).flatMap((d) => {
    try {
      return ours(Number(/^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${d}/status`, 'utf8'))?.[1])) ? [Number(d)] : [];
    } catch {
      return []; // ended while we looked
    }
  });
}

function handle(name: string): RootlessUser {
  const pw = passwd(name);
  if (!pw) throw new Error(`no user ${name}`);
  const env: Record<string, string> = {
    HOME: pw.home,
    USER: name,
    LOGNAME: name,
    PATH: '/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin',
    // What a login session gives a user: podman keeps its run-time state there.
    XDG_RUNTIME_DIR: join(pw.home, 'run'),
    TMPDIR: join(pw.home, 'tmp'),
    // The suite's marker (.ci/run), so a process of the user's left alive is found like any other.
    ...(process.env.FCS_TEST_RUN ? { FCS_TEST_RUN: process.env.FCS_TEST_RUN } : {}),
  };
  // setpriv execs the command itself (runuser would fork and wait), so the pid a test holds is the command's.
  const as = (cmd: string[], extra: Record<string, string> = {}) => [
    'setpriv', `--reuid=${pw.uid}`, `--regid=${pw.gid}`, '--init-groups', 'env', '-i',
    ...Object.entries({ ...env, ...extra }).map(([k, v]) => `${k}=${v}`), ...cmd,
  ];
  const sh = (cmd: string[]) => {
    const p = Bun.spawnSync(as(cmd), { cwd: pw.home, stdout: 'pipe', stderr: 'pipe' });
    if (p.exitCode !== 0) throw new Error(`${cmd.join(' ')} as ${name} failed (exit ${p.exitCode}):\n${p.stderr.toString()}${p.stdout.toString()}`);
    return p.stdout.toString();
  };
  let staged = 0;
  return {
    name,
    uid: pw.uid,
    subuid: subordinate('/etc/subuid', name) ?? -1,
    home: pw.home,
    as,
    sh,
    stage: (files) => {
      const dir = join(pw.home, `checkout-${++staged}`);
      for (const [rel, source] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, rel)), { recursive: true });
        copyFileSync(source, join(dir, rel));
        chmodSync(join(dir, rel), statSync(source).mode & 0o7777);
      }
      for (const rel of ['', ...(readdirSync(dir, { recursive: true }) as string[])]) chownSync(join(dir, rel), pw.uid, pw.gid);
      return dir;
    },
    remove: () => {
      if (existsSync(env.XDG_RUNTIME_DIR!)) run(as(['podman', 'rm', '--all', '--force', '--time', '0']));
      // What is left runs as the user (podman's pause process, which holds the user namespace; conmon)
      // or as one of its subordinate ids (a container podman could not remove): all of it this user's.
      const sub = subordinate('/etc/subuid', name);
      const ours = (uid: number) => uid === pw.uid || (sub !== null && uid >= sub && uid < sub + 65536);
      for (const pid of processesOf(ours)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // ended on its own meanwhile
        }
      }
      for (let i = 0; i < 50 && processesOf(ours).length > 0; i++) Bun.sleepSync(100);
      const del = run(['userdel', '--remove', name]);
      // userdel exits 12 when only the mail spool, which useradd never made, is missing.
      if (del.code !== 0 && !(del.code === 12 && passwd(name) === null)) throw new Error(`userdel ${name} failed (exit ${del.code}): ${del.out}`);
    },
  };
}

/**
 * A new user for this run, with a home, subordinate ids and the directories podman needs. Needs
 * root (useradd) and newuidmap/newgidmap (Debian's uidmap, installed by scripts/setup-test.sh).
 */
export function createRootlessUser(): RootlessUser {
  for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
    const pid = Number(new RegExp(`^${PREFIX}(\\d+):`).exec(line)?.[1]);
    if (pid && (pid === process.pid || !alive(pid))) handle(`${PREFIX}${pid}`).remove();
  }
  const name = `${PREFIX}${process.pid}`;
  let made = run(['useradd', '--create-home', '--shell', '/bin/sh', name]);
  // Another run's useradd may hold /etc/passwd's lock for a moment.
  for (let i = 0; i < 20 && made.code !== 0 && /lock/i.test(made.out); i++) (Bun.sleepSync(250), (made = run(['useradd', '--create-home', '--shell', '/bin/sh', name])));
  if (made.code !== 0) throw new Error(`useradd ${name} failed (exit ${made.code}; the rootless test runs as root): ${made.out}`);
  const user = handle(name);
  try {
    if (subordinate('/etc/subuid', name) === null || subordinate('/etc/subgid', name) === null) {
      throw new Error(`useradd gave ${name} no range of 65536 ids in /etc/subuid and /etc/subgid`);
    }
    const pw = passwd(name)!;
    for (const dir of ['run', 'tmp']) {
      mkdirSync(join(pw.home, dir), { mode: 0o700 });
      chownSync(join(pw.home, dir), pw.uid, pw.gid);
    }
    return user;
  } catch (e) {
    user.remove();
    throw e;
  }
}

/**
 * The user's running container `name` as a Running: its log followed with `podman logs -f` (the
 * container's stdout and stderr, from its start), `podman exec` and `podman stop` as the user.
 */
export async function attach(user: RootlessUser, name: string): Promise<Running> {
  // --log-level error: podman's own warnings (e.g. "/" is not a shared mount) are not the service's log.
  const service = await spawnService(user.as(['podman', '--log-level', 'error', 'logs', '--follow', name]), { env: {}, cwd: user.home, startMs: 30_000 });
  return {
    service,
    how: 'rootless podman',
    exec: (args) => user.sh(['podman', 'exec', name, '/usr/local/bin/facility-score', ...args]),
    stop: async () => {
      user.sh(['podman', 'stop', '--time', '20', name]);
      await service.proc.exited;
      return Number(user.sh(['podman', 'inspect', '--format', '{{.State.ExitCode}}', name]).trim());
    },
  };
}
