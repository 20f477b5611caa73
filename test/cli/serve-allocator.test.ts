import { describe, expect, it } from 'bun:test';
import { readFileSync } from 'node:fs';
import { SERVE_ALLOCATOR_ENV, serveAllocatorEnv } from '../../src/cli/serve-allocator';
import { MAIN, ROOT, spawnService, tempIndex } from '../support/process';

const environOf = (pid: number) => readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0');
const cmdlineOf = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0').filter(Boolean);

describe('which starts of the program run again with the serve allocator setting', () => {
  it('serve does, with the rest of its environment as it was', () => {
    const next = serveAllocatorEnv(['serve', '--port', '0'], { FCS_INDEX: '/x.sqlite', EMPTY: '', GONE: undefined });
    expect(next).toEqual({ FCS_INDEX: '/x.sqlite', EMPTY: '', ...SERVE_ALLOCATOR_ENV });
  });

  it.each([
    ['an operator\'s own MIMALLOC_PURGE_DELAY', ['serve'], { MIMALLOC_PURGE_DELAY: '10' }],
    ['an empty MIMALLOC_PURGE_DELAY (set, so the operator\'s)', ['serve'], { MIMALLOC_PURGE_DELAY: '' }],
    ['serve --help', ['serve', '--help'], {}],
    ['serve -h', ['serve', '-h'], {}],
    ['ingest (it has its own setting)', ['ingest', 'a.csv', '--out', 'b.sqlite'], {}],
    ['keys', ['keys', 'list'], {}],
    ['no command', [], {}],
  ] as const)('%s does not', (_name, args, env) => {
    expect(serveAllocatorEnv(args, env)).toBeNull();
  });
});

describe('serve runs under its allocator setting in the process it was started as', () => {
  const { dir, indexPath } = tempIndex();
  const env = { ...process.env, FCS_LOG_REQUESTS: '0', MIMALLOC_PURGE_DELAY: undefined };
  const args = [process.execPath, MAIN, 'serve', '--port', '0', '--host', '127.0.0.1', '--index', indexPath, '--state-dir', dir];

  it('with MIMALLOC_PURGE_DELAY=-1, the same PID and arguments; it answers, and a SIGTERM to that PID stops it cleanly', async () => {
    const s = await spawnService(args, { env, cwd: ROOT });
    try {
      expect(environOf(s.proc.pid)).toContain(`MIMALLOC_PURGE_DELAY=${SERVE_ALLOCATOR_ENV.MIMALLOC_PURGE_DELAY}`);
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
      expect(environOf(s.proc.pid)).not.toContain(`MIMALLOC_PURGE_DELAY=${SERVE_ALLOCATOR_ENV.MIMALLOC_PURGE_DELAY}`);
    } finally {
      await s.stop('SIGTERM');
    }
  }, 60_000);
});
