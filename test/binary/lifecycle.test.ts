import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { renameSync, symlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { IndexWriter } from '../../src/index/index-writer';
import { DEFAULT_ROWS, FIXED_NOW } from '../helpers';
import { binary, run, sampleFacts, startServe } from './support';
import { removeTempDirs, tempDir } from '../support/temp-dir';

beforeAll(() => void binary(), 120_000);
afterAll(removeTempDirs);

/** A small index file whose dataset name says which generation it is. */
function indexFile(dir: string, name: string): string {
  const path = join(dir, `${name}.sqlite`);
  const w = new IndexWriter(path);
  for (const r of DEFAULT_ROWS) w.add(r);
  w.finish({ dataset_name: name, as_of: '2026-11-01', score_version: 'test', fictitious: true, built_at: new Date(FIXED_NOW).toISOString(), sources: [], row_counts: {} });
  return path;
}

/** Points `link` at `target` atomically (a new symlink renamed over the old one), as docs/operations.md says to. */
function repoint(link: string, target: string) {
  const tmp = `${link}.new`;
  symlinkSync(target, tmp);
  renameSync(tmp, link);
}

function isRunning(proc: { exitCode: number | null }) {
  return proc.exitCode === null;
}

describe('graceful shutdown (SIGTERM)', () => {
  it('stops accepting at once, finishes the request in flight, then exits 0', async () => {
    const stateDir = tempDir('bin-run');
    const { key } = JSON.parse(run(['keys', 'create', '--tier', 'enterprise', '--json', '--state-dir', stateDir]).stdout);
    const server = await startServe(['--index', indexFile(tempDir('bin-run'), 'drain'), '--state-dir', stateDir]);
    const body = JSON.stringify({ registry_ids: ['990000000001', '990000000002'] });
    const half = Math.floor(body.length / 2);

    // A request whose body is still arriving when SIGTERM lands: in flight, not finished.
    const socket = net.connect(server.port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    let response = '';
    socket.on('data', (d) => (response += d.toString()));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.write(`POST /api/v1/portfolio HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: ${key}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body.slice(0, half)}`);
    await Bun.sleep(300);

    server.proc.kill('SIGTERM');
    await server.waitForLine((l) => String(l.msg).startsWith('SIGTERM'));
    await Bun.sleep(300);
    expect(isRunning(server.proc)).toBe(true);
    expect(response).toBe('');
    // New connections are refused while the old request finishes.
    expect(await fetch(`${server.base}/healthz`).then((r) => r.status, (e: Error) => e.message)).toMatch(/ECONNREFUSED|Unable to connect|refused/i);

    socket.write(body.slice(half));
    await closed;
    expect(response).toStartWith('HTTP/1.1 200');
    expect(response).toContain('"total":2');
    expect(await server.proc.exited).toBe(0);
    expect(server.lines.find((l) => l.msg === 'stopped')).toMatchObject({ clean: true });
  });
  it('a request still running after FCS_SHUTDOWN_TIMEOUT_MS is cut off and the exit code is 1', async () => {
    const server = await startServe(['--index', indexFile(tempDir('bin-run'), 'stuck'), '--state-dir', tempDir('bin-run')], { FCS_SHUTDOWN_TIMEOUT_MS: '500' });
    const socket = net.connect(server.port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.on('error', () => undefined);
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.write('POST /api/v1/portfolio HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{');
    await Bun.sleep(300);
    const sent = performance.now();
    server.proc.kill('SIGTERM');
    expect(await server.proc.exited).toBe(1);
    await closed;
    expect(performance.now() - sent).toBeGreaterThanOrEqual(450);
    expect(server.lines.some((l) => String(l.msg).includes('closing their connections'))).toBe(true);
    expect(server.lines.find((l) => l.msg === 'stopped')).toMatchObject({ clean: false });
  });

  it('a second SIGTERM while draining exits at once with code 1', async () => {
    const server = await startServe(['--index', indexFile(tempDir('bin-run'), 'impatient'), '--state-dir', tempDir('bin-run')]);
    const socket = net.connect(server.port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.on('error', () => undefined);
    // Never finished: the body is promised but not sent, so the first SIGTERM would wait for it.
    socket.write('POST /api/v1/portfolio HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{');
    await Bun.sleep(300);
    server.proc.kill('SIGTERM');
    await server.waitForLine((l) => String(l.msg).startsWith('SIGTERM'));
    await Bun.sleep(200);
    expect(isRunning(server.proc)).toBe(true);
    server.proc.kill('SIGTERM');
    expect(await server.proc.exited).toBe(1);
    socket.destroy();
  });
});

describe('index rotation without downtime (SIGHUP)', () => {
  it('SIGHUP on the embedded sample (no --index) reloads it and keeps serving: the old copy closed is not the new one', async () => {
    const stateDir = tempDir('bin-run');
    const created = run(['keys', 'create', '--tier', 'starter', '--json', '--state-dir', stateDir]);
    const { key } = JSON.parse(created.stdout);
    const server = await startServe(['--state-dir', stateDir]);
    try {
      const lookup = () => fetch(`${server.base}/api/v1/facility/${sampleFacts().row.registry_id}`, { headers: { 'x-api-key': key } });
      expect((await lookup()).status).toBe(200);
      server.proc.kill('SIGHUP');
      await server.waitForLine((l) => l.msg === 'index reloaded');
      expect((await fetch(`${server.base}/readyz`)).status).toBe(200);
      expect((await lookup()).status).toBe(200);
    } finally {
      server.proc.kill('SIGKILL');
    }
  });

  it('repointing the index path and sending SIGHUP switches datasets with no failed request; a bad file is refused', async () => {
    const dir = tempDir('rotate');
    const a = indexFile(dir, 'generation-A');
    const b = indexFile(dir, 'generation-B');
    const bad = join(dir, 'broken.sqlite');
    writeFileSync(bad, 'not an index');
    const current = join(dir, 'current.sqlite');
    symlinkSync(a, current);
    const server = await startServe(['--index', current, '--state-dir', tempDir('bin-run')]);

    const seen: string[] = [];
    const failures: string[] = [];
    let stop = false;
    const worker = async () => {
      while (!stop) {
        try {
          const res = await fetch(`${server.base}/api/v1/status`);
          if (res.status !== 200) failures.push(`status ${res.status}`);
          seen.push(((await res.json()) as any).data.dataset.dataset_name);
        } catch (e) {
          failures.push((e as Error).message);
        }
      }
    };
    try {
      const workers = Array.from({ length: 4 }, worker);
      await Bun.sleep(300);
      repoint(current, b);
      server.proc.kill('SIGHUP');
      const reloaded = await server.waitForLine((l) => l.msg === 'index reloaded' && l.dataset === 'generation-B');
      // These files carry no area index: built on a worker thread (an extra entry point of the binary), so the old index kept serving meanwhile.
      expect(reloaded).toMatchObject({ area_index: 'worker' });
      await Bun.sleep(300);
      stop = true;
      await Promise.all(workers);

      expect(failures).toEqual([]);
      expect(seen[0]).toBe('generation-A');
      expect(seen.at(-1)).toBe('generation-B');
      // Once switched, never back: requests on the old app finished before it closed.
      expect(seen.slice(seen.indexOf('generation-B')).every((n) => n === 'generation-B')).toBe(true);

      repoint(current, bad);
      server.proc.kill('SIGHUP');
      const refused = await server.waitForLine((l) => String(l.msg).startsWith('reload refused'));
      expect(refused).toMatchObject({ level: 'error', dataset: 'generation-B' });
      const status = (await (await fetch(`${server.base}/api/v1/status`)).json()) as any;
      expect(status.data.dataset.dataset_name).toBe('generation-B');
      const metrics = await (await fetch(`${server.base}/metrics`)).text();
      expect(metrics).toContain('fcs_index_reloads_total{result="ok"} 1');
      expect(metrics).toContain('fcs_index_reloads_total{result="failed"} 1');
      expect(metrics).toContain('fcs_index_facilities{dataset="generation-B"');

      server.proc.kill('SIGTERM');
      expect(await server.proc.exited).toBe(0);
    } finally {
      stop = true;
      server.proc.kill('SIGKILL');
    }
  });
});
