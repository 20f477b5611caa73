import { afterAll, describe, expect, it } from 'bun:test';
import { join } from 'node:path';
import { IndexWriter } from '../../src/index/index-writer';
import { DEFAULT_ROWS, FIXED_NOW } from '../helpers';
import { MAIN, ROOT, startServer, type Service } from '../support/process';
import { tempDir } from '../support/temp-dir';

// Two real processes: the point is what the kernel does with two listeners on one port.
/** An index whose dataset name tells which process answered a request. */
function indexNamed(name: string): string {
  const path = join(tempDir('port'), 'index.sqlite');
  const w = new IndexWriter(path);
  for (const r of DEFAULT_ROWS) w.add(r);
  w.finish({ dataset_name: name, as_of: '2026-11-01', score_version: 'test', fictitious: true, built_at: new Date(FIXED_NOW).toISOString(), sources: [], row_counts: {} });
  return path;
}
const indexPath = indexNamed('first');
const otherIndex = indexNamed('second');
const running: Service[] = [];

async function serve(args: string[] = [], env: Record<string, string> = {}, index = indexPath): Promise<Service> {
  const s = await startServer(['--index', index, '--state-dir', tempDir('port'), ...args], env);
  running.push(s);
  return s;
}

/** A second `serve` on `port`, run to its end (or killed after 20 s if it keeps serving). */
async function secondServe(port: number, args: string[] = [], env: Record<string, string> = {}) {
  const proc = Bun.spawn([process.execPath, MAIN, 'serve', '--host', '127.0.0.1', '--port', String(port), '--index', indexPath, '--state-dir', tempDir('port'), ...args], {
    env: { ...process.env, FCS_LOG_REQUESTS: '0', ...env },
    cwd: ROOT,
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const timer = setTimeout(() => proc.kill('SIGKILL'), 20_000);
  const code = await proc.exited;
  clearTimeout(timer);
  return { code, stdout: await new Response(proc.stdout).text(), stderr: await new Response(proc.stderr).text() };
}

afterAll(async () => {
  for (const s of running) await s.stop('SIGKILL');
});

describe('a second serve on a port that is already taken', () => {
  it('stops before listening: one "address in use" line on stderr naming the port and leading with --port / FCS_PORT, exit 1', async () => {
    const first = await serve();
    const r = await secondServe(first.port);
    expect(r.code).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('address in use');
    expect(lines[0]).toContain(`127.0.0.1:${first.port}`);
    expect(lines[0]).toMatch(/address in use: [^(]*another port with --port N or FCS_PORT=N \(--reuse-port/);
    expect(r.stdout).not.toContain('"msg":"listening');
    // The first one still answers every request alone.
    expect((await fetch(`${first.base}/healthz`)).status).toBe(200);
  });

  it.each([
    ['--reuse-port', ['--reuse-port'], {}],
    ['FCS_REUSE_PORT=1', [], { FCS_REUSE_PORT: '1' }],
  ] as const)('shares the port when asked to (%s): both processes answer on it', async (_name, args, env) => {
    const first = await serve();
    const second = await serve(['--port', String(first.port), ...args], env, otherIndex);
    expect(second.port).toBe(first.port);
    // The kernel spreads new connections over both listeners (by source port): both get some of 40.
    const answered = new Set<string>();
    for (let i = 0; i < 40 && answered.size < 2; i++) {
      const res = await fetch(`${first.base}/api/v1/status`, { keepalive: false });
      expect(res.status).toBe(200);
      answered.add(((await res.json()) as any).data.dataset.dataset_name);
    }
    expect([...answered].sort()).toEqual(['first', 'second']);
  });

  it('FCS_REUSE_PORT=0 is the default: the port stays exclusive', async () => {
    const first = await serve();
    const r = await secondServe(first.port, [], { FCS_REUSE_PORT: '0' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`address in use: 127.0.0.1:${first.port}`);
  });

  it('a SIGHUP reload of an exclusive serve still hands over on its own port', async () => {
    const s = await serve();
    s.proc.kill('SIGHUP');
    const reloaded = await s.waitForLine((l) => l.msg === 'index reloaded');
    expect(reloaded.level).toBe('info');
    expect((await fetch(`${s.base}/healthz`)).status).toBe(200);
    // And the port is still refused to a newcomer after the hand-over.
    expect((await secondServe(s.port)).code).toBe(1);
  });
});
