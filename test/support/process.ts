import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IndexWriter } from '../../src/index/index-writer';
import { DEFAULT_ROWS, FIXED_NOW } from '../helpers';

export const ROOT = join(import.meta.dir, '..', '..');
export const MAIN = join(ROOT, 'src', 'main.ts');

/** A temp dir holding a small index file built from the default test rows. */
export function tempIndex(): { dir: string; indexPath: string } {
  const dir = mkdtempSync(join(tmpdir(), 'fcs-proc-'));
  const indexPath = join(dir, 'index.sqlite');
  const w = new IndexWriter(indexPath);
  for (const r of DEFAULT_ROWS) w.add(r);
  w.finish({ dataset_name: 'process test', as_of: '2026-11-01', score_version: 'test', fictitious: true, built_at: new Date(FIXED_NOW).toISOString(), sources: [], row_counts: {} });
  return { dir, indexPath };
}

/** Runs a CLI command of src/main.ts to completion. */
export function cli(args: string[], env: Record<string, string> = {}) {
  const p = Bun.spawnSync([process.execPath, MAIN, ...args], { env: { ...process.env, ...env }, cwd: ROOT });
  return { code: p.exitCode, stdout: p.stdout.toString(), stderr: p.stderr.toString() };
}

/** Starts `serve` on a free port and waits until it answers; `stop()` kills it. */
export async function startServer(args: string[], env: Record<string, string> = {}) {
  const proc = Bun.spawn([process.execPath, MAIN, 'serve', '--port', '0', '--host', '127.0.0.1', ...args], {
    env: { ...process.env, FCS_LOG_REQUESTS: '0', ...env },
    cwd: ROOT,
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const reader = proc.stdout.getReader();
  let buffered = '';
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += new TextDecoder().decode(value);
    const m = buffered.match(/"port":(\d+)/);
    if (m) {
      reader.releaseLock();
      const base = `http://127.0.0.1:${m[1]}`;
      return { proc, base, stop: async (signal: NodeJS.Signals | number = 'SIGKILL') => { proc.kill(signal); return await proc.exited; } };
    }
  }
  proc.kill('SIGKILL');
  throw new Error(`server did not start: ${buffered}${await new Response(proc.stderr).text()}`);
}
