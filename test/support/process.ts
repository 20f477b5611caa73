import { join } from 'node:path';
import { IndexWriter } from '../../src/index/index-writer';
import { DEFAULT_ROWS, FIXED_NOW } from '../helpers';
import { tempDir } from './temp-dir';

export const ROOT = join(import.meta.dir, '..', '..');
export const MAIN = join(ROOT, 'src', 'main.ts');

/** A temp dir holding a small index file built from the default test rows. */
export function tempIndex(): { dir: string; indexPath: string } {
  const dir = tempDir('proc');
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

export type Service = {
  proc: ReturnType<typeof Bun.spawn>;
  base: string;
  port: number;
  /** Every stdout line so far, parsed (the service logs JSON lines; others as `{ raw }`). */
  lines: Record<string, any>[];
  /** Every line printed so far, as printed, stdout's then stderr's. */
  printed: () => { stdout: string[]; stderr: string[] };
  /** Everything printed so far, stdout and stderr, for failure messages. */
  output: () => string;
  /** Waits for a log line matching `pred`. */
  waitForLine: (pred: (l: Record<string, any>) => boolean, ms?: number) => Promise<Record<string, any>>;
  /** Signals the process (SIGKILL by default) and resolves with its exit code. */
  stop: (signal?: NodeJS.Signals | number) => Promise<number>;
};

/**
 * Runs a `serve` command line and resolves once it logs its "listening" line. Both pipes are drained
 * for the process's whole life (a full pipe would stall a chatty server).
 */
export async function spawnService(cmd: string[], opts: { env: Record<string, string | undefined>; cwd: string; startMs?: number }): Promise<Service> {
  const proc = Bun.spawn(cmd, { env: opts.env, cwd: opts.cwd, stdout: 'pipe', stderr: 'pipe' });
  const lines: Record<string, any>[] = [];
  const outLines: string[] = [];
  let errText = '';
  const waiters: { pred: (l: Record<string, any>) => boolean; resolve: (l: Record<string, any>) => void }[] = [];
  void (async () => {
    let buf = '';
    for await (const chunk of proc.stdout as ReadableStream<Uint8Array>) {
      buf += new TextDecoder().decode(chunk);
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const text = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        outLines.push(text);
        let line: Record<string, any>;
        try {
          line = JSON.parse(text);
        } catch {
          line = { raw: text };
        }
        lines.push(line);
        for (const w of [...waiters]) if (w.pred(line)) (waiters.splice(waiters.indexOf(w), 1), w.resolve(line));
      }
    }
    if (buf !== '') outLines.push(buf); // a last line without its newline is a line too
  })();
  void (async () => {
    for await (const chunk of proc.stderr as ReadableStream<Uint8Array>) errText = (errText + new TextDecoder().decode(chunk)).slice(-200_000);
  })();
  const printed = () => ({ stdout: [...outLines], stderr: errText === '' ? [] : errText.replace(/\n$/, '').split('\n') });
  const output = () => `${lines.map((l) => JSON.stringify(l)).join('\n')}\n${errText}`;
  const waitForLine = (pred: (l: Record<string, any>) => boolean, ms = 20_000) => {
    const seen = lines.find(pred);
    if (seen) return Promise.resolve(seen);
    return new Promise<Record<string, any>>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching log line within ${ms} ms; got:\n${output()}`)), ms);
      waiters.push({ pred, resolve: (l) => (clearTimeout(timer), resolve(l)) });
    });
  };
  const stop = async (signal: NodeJS.Signals | number = 'SIGKILL') => {
    proc.kill(signal);
    return await proc.exited;
  };
  try {
    const listening = await Promise.race([
      waitForLine((l) => typeof l.port === 'number' && String(l.msg).startsWith('listening'), opts.startMs ?? 30_000),
      proc.exited.then(async (code) => {
        await Bun.sleep(50); // let the drains catch the last words
        throw new Error(`serve exited with ${code} before listening:\n${output()}`);
      }),
    ]);
    return { proc, base: `http://127.0.0.1:${listening.port}`, port: listening.port, lines, printed, output, waitForLine, stop };
  } catch (e) {
    proc.kill('SIGKILL');
    throw e;
  }
}

/** Starts `serve` from the source tree on a free port and waits until it listens. */
export function startServer(args: string[], env: Record<string, string> = {}): Promise<Service> {
  return spawnService([process.execPath, MAIN, 'serve', '--port', '0', '--host', '127.0.0.1', ...args], {
    env: { ...process.env, FCS_LOG_REQUESTS: '0', ...env },
    cwd: ROOT,
  });
}
