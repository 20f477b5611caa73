import { describe, expect, it } from 'bun:test';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exporterLines } from '../../scripts/synth/generator';
import { ALLOCATOR_ENV, allocatorEnv } from '../../src/cli/allocator';
import { FacilityIndex } from '../../src/index/facility-index';
import { MAIN, ROOT, spawnService, tempIndex } from '../support/process';
import { tempDir } from '../support/temp-dir';

const environOf = (pid: number) => readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0');
const cmdlineOf = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0').filter(Boolean);

/** Processes whose parent is `pid` (from /proc). */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'latin1');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
}

/** A file of `rows` generated exporter rows: a build of it runs long enough to be looked at. */
function bigFile(dir: string, rows: number): string {
  const path = join(dir, 'big.csv');
  writeFileSync(path, [...exporterLines({ seed: 'ingest-process', rows, asOf: '2026-10-31' })].join('\r\n'));
  return path;
}

describe('which starts of the program run again with an allocator setting', () => {
  it.each([
    ['serve', ['serve', '--port', '0'], ALLOCATOR_ENV.serve],
    ['ingest', ['ingest', 'a.csv', '--out', 'b.sqlite'], ALLOCATOR_ENV.ingest],
  ] as const)('%s does, with its own setting and the rest of its environment as it was', (_name, args, setting) => {
    expect(allocatorEnv(args, { FCS_INDEX: '/x.sqlite', EMPTY: '', GONE: undefined })).toEqual({ FCS_INDEX: '/x.sqlite', EMPTY: '', ...setting });
  });

  it.each([
    ['serve with an operator\'s own MIMALLOC_PURGE_DELAY', ['serve'], { MIMALLOC_PURGE_DELAY: '10' }],
    ['serve with an empty MIMALLOC_PURGE_DELAY (set, so the operator\'s)', ['serve'], { MIMALLOC_PURGE_DELAY: '' }],
    ['ingest with an operator\'s own MIMALLOC_PURGE_HOLES', ['ingest', 'a.csv'], { MIMALLOC_PURGE_HOLES: '1' }],
    ['serve --help', ['serve', '--help'], {}],
    ['ingest -h', ['ingest', '-h'], {}],
    ['keys', ['keys', 'list'], {}],
    ['--version', ['--version'], {}],
    ['no command', [], {}],
  ] as const)('%s does not', (_name, args, env) => {
    expect(allocatorEnv(args, env)).toBeNull();
  });
});

describe('serve runs under its allocator setting in the process it was started as', () => {
  const { dir, indexPath } = tempIndex();
  const env = { ...process.env, FCS_LOG_REQUESTS: '0', MIMALLOC_PURGE_DELAY: undefined };
  const args = [process.execPath, MAIN, 'serve', '--port', '0', '--host', '127.0.0.1', '--index', indexPath, '--state-dir', dir];

  it('with MIMALLOC_PURGE_DELAY=-1, the same PID and arguments; it answers, and a SIGTERM to that PID stops it cleanly', async () => {
    const s = await spawnService(args, { env, cwd: ROOT });
    try {
      expect(environOf(s.proc.pid)).toContain(`MIMALLOC_PURGE_DELAY=${ALLOCATOR_ENV.serve.MIMALLOC_PURGE_DELAY}`);
      expect(cmdlineOf(s.proc.pid)).toEqual(args);
      expect(s.lines.find((l) => String(l.msg).startsWith('listening'))!.pid).toBe(s.proc.pid);
      expect((await fetch(`${s.base}/healthz`)).status).toBe(200);
    } finally {
      expect(await s.stop('SIGTERM')).toBe(0);
    }
    expect(s.lines.some((l) => l.msg === 'stopped' && l.clean === true)).toBe(true);
  }, 60_000);

  it('an operator\'s own value is kept', async () => {
    const s = await spawnService(args, { env: { ...env, MIMALLOC_PURGE_DELAY: '10' }, cwd: ROOT });
    try {
      expect(environOf(s.proc.pid)).toContain('MIMALLOC_PURGE_DELAY=10');
      expect(environOf(s.proc.pid)).not.toContain(`MIMALLOC_PURGE_DELAY=${ALLOCATOR_ENV.serve.MIMALLOC_PURGE_DELAY}`);
    } finally {
      await s.stop('SIGTERM');
    }
  }, 60_000);
});

describe('ingest builds under its allocator setting in the process it was started as', () => {
  /** Waits for the build's temp file, named by the PID of the process building; true once it exists. */
  const building = async (out: string, pid: number) => {
    for (let i = 0; i < 600 && !existsSync(`${out}.tmp-${pid}`); i++) await Bun.sleep(25);
    return existsSync(`${out}.tmp-${pid}`);
  };

  it('with MIMALLOC_PURGE_HOLES=0, in the PID it was started as and no other process; its summary on its stdout', async () => {
    const dir = tempDir('ingest-process');
    const out = join(dir, 'index.sqlite');
    const proc = Bun.spawn([process.execPath, MAIN, 'ingest', bigFile(dir, 40_000), '--out', out], { stdout: 'pipe', stderr: 'pipe', env: { ...process.env, MIMALLOC_PURGE_HOLES: undefined } });
    expect(await building(out, proc.pid)).toBe(true);
    expect(environOf(proc.pid)).toContain(`MIMALLOC_PURGE_HOLES=${ALLOCATOR_ENV.ingest.MIMALLOC_PURGE_HOLES}`);
    // the area layout runs in a process of its own at the end; none during the load
    expect(childrenOf(proc.pid)).toEqual([]);
    expect(await proc.exited).toBe(0);
    expect(await new Response(proc.stdout).text()).toContain('ingest: built');
    expect(FacilityIndex.open(out).info.facility_count).toBe(40_000);
  }, 120_000);

  it('a setting the operator gave is kept', async () => {
    const dir = tempDir('ingest-process');
    const out = join(dir, 'index.sqlite');
    const proc = Bun.spawn([process.execPath, MAIN, 'ingest', bigFile(dir, 40_000), '--out', out], { stdout: 'ignore', stderr: 'ignore', env: { ...process.env, MIMALLOC_PURGE_HOLES: '1' } });
    expect(await building(out, proc.pid)).toBe(true);
    expect(environOf(proc.pid)).toContain('MIMALLOC_PURGE_HOLES=1');
    expect(await proc.exited).toBe(0);
  }, 120_000);

  it('a Ctrl-C stops the build: exit 130, one message, no temp file, the old index kept', async () => {
    const dir = tempDir('ingest-process');
    const out = join(dir, 'index.sqlite');
    const small = join(dir, 'small.csv');
    writeFileSync(small, [...exporterLines({ seed: 'ingest-process-old', rows: 10, asOf: '2026-10-31' })].join('\r\n'));
    expect(Bun.spawnSync([process.execPath, MAIN, 'ingest', small, '--out', out]).exitCode).toBe(0);
    const before = readFileSync(out);
    const proc = Bun.spawn([process.execPath, MAIN, 'ingest', bigFile(dir, 150_000), '--out', out], { stdout: 'ignore', stderr: 'pipe', env: { ...process.env, MIMALLOC_PURGE_HOLES: undefined } });
    expect(await building(out, proc.pid)).toBe(true);
    proc.kill('SIGINT');
    expect(await proc.exited).toBe(130);
    const stderr = await new Response(proc.stderr).text();
    expect(stderr.split('ingest: interrupted').length - 1).toBe(1);
    expect(readFileSync(out).equals(before)).toBe(true);
    expect(readdirSync(dir).filter((f) => f.includes('.tmp-'))).toEqual([]);
  }, 120_000);
});
