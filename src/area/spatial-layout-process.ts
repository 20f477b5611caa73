import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FileSink, Subprocess } from 'bun';
import { IS_COMPILED_BINARY } from '../worker-url';
import { CellNumbering } from './cell-numbering';
import { endOfPoints, readLayoutStream, type LayoutJob } from './layout-stream';
import { inRegistryOrder } from './registry-order';
import { readColumnsFile } from './spatial-columns-file';
import { writeSpatialFileAt } from './spatial-file';
import { AREA_H3_RES, layoutSpatialIndex } from './spatial-index';

/**
 * The area layout in a process of its own. At national scale the ingest process holds ~0.9-1.1 GB
 * when its load ends (the parser's heap: a full GC does not hand it back to the OS); laid out there,
 * the layout came on top of it (1.85 GiB peak with main's layout, ~1.2 GiB after its loop fixes).
 * A fresh process lays the collected columns out with none of that heap (~0.7 GiB), while the
 * ingest process waits at ~0.45 GiB (docs/operations.md). A Worker would not do: it shares the
 * process, so its heap adds to the same RSS.
 *
 * The process starts with the load: ingest streams it each facility's point as rows arrive
 * (./layout-stream.ts), and it makes their H3 cells meanwhile (~9 s of a ~10 s national layout) on
 * the core the load leaves idle. After the load it gets the columns file, puts the columns and its
 * cells in registry_id order, lays them out and writes the area file.
 */

/** The hidden CLI subcommand a layout process runs (src/cli/run.ts); not in the usage text. */
export const LAYOUT_COMMAND = '__layout-area';

/** This program started again: the compiled binary itself, or Bun on src/main.ts in a checkout. */
export function selfCommand(): string[] {
  return IS_COMPILED_BINARY ? [process.execPath] : [process.execPath, fileURLToPath(new URL('../main.ts', import.meta.url))];
}

/**
 * Ingest's side of a layout process started with `command` (default: this program with the hidden
 * subcommand). Nothing here throws before `finish`: a process that did not start or has died takes
 * points without effect (no EPIPE escapes), and `finish` reports it.
 */
export class LayoutProcess {
  private readonly proc: Subprocess<'pipe', 'ignore', 'pipe'> | null = null;
  private readonly startError: string = '';
  private readonly stderr: Promise<string> = Promise.resolve('');
  private sent = 0;
  private ended = false;
  private pending: Promise<void> | null = null;

  constructor(command: string[] = selfCommand()) {
    try {
      this.proc = Bun.spawn([...command, LAYOUT_COMMAND], { stdin: 'pipe', stdout: 'ignore', stderr: 'pipe' });
      this.stderr = new Response(this.proc.stderr).text().catch(() => '');
    } catch (e) {
      this.startError = (e as Error).message;
    }
  }

  get pid(): number | null {
    return this.proc?.pid ?? null;
  }

  /** Started and not yet exited. */
  get running(): boolean {
    return this.proc !== null && this.proc.exitCode === null && this.proc.signalCode === null;
  }

  /** Sends (lat, lng) pairs; `pairs` is not reused by the caller (the sink may hold it until the pipe takes it). */
  send(pairs: Float64Array): void {
    this.sent += pairs.length / 2;
    this.write(pairs);
  }

  /** Resolves when what was sent has gone into the pipe; null when it has already. Ingest waits on it between batches of rows. */
  ready(): Promise<void> | null {
    return this.pending;
  }

  /**
   * Ends the points with `job` and waits for the process to lay them out. On failure, no file is
   * left at `job.outPath` and the error is one line: the exit code or signal and its last line of stderr.
   */
  async finish(job: LayoutJob): Promise<void> {
    const proc = this.proc;
    if (!proc) throw new Error(`the area index could not be laid out: its process did not start (${this.startError})`);
    this.write(endOfPoints(this.sent, job));
    this.end();
    const [code, stderr] = await Promise.all([proc.exited, this.stderr]);
    if (code === 0 && proc.signalCode === null) return;
    rmSync(job.outPath, { force: true });
    const last = stderr.split('\n').map((l) => l.trim()).filter(Boolean).at(-1);
    const how = proc.signalCode ? `was killed by ${proc.signalCode}` : `exited with code ${code}`;
    throw new Error(`the area index could not be laid out: its process (pid ${proc.pid}) ${how}${last ? `: ${last}` : ''}`);
  }

  /** Stops the process (the ingest failed or was interrupted): killed at once; resolves when it has exited. */
  async abort(): Promise<void> {
    if (!this.proc) return;
    if (this.running) this.proc.kill('SIGKILL');
    this.end();
    await this.proc.exited;
  }

  private write(bytes: Uint8Array | Float64Array): void {
    if (!this.proc || this.ended || !this.running) return;
    const sink = this.proc.stdin as FileSink;
    try {
      // A full pipe makes write or flush return a promise (the bytes wait in the sink); one that
      // breaks (EPIPE: the process died) rejects it. Caught here: the exit status says what happened.
      const waits = [sink.write(bytes), sink.flush()].filter((w): w is Promise<number> => w instanceof Promise);
      if (waits.length === 0) return;
      const p = Promise.all(waits).then(
        () => {},
        () => {},
      );
      this.pending = p;
      void p.then(() => {
        if (this.pending === p) this.pending = null;
      });
    } catch {
      // a synchronous failure to write means the same: the exit status is reported by `finish`
    }
  }

  private end(): void {
    if (!this.proc || this.ended) return;
    this.ended = true;
    try {
      const done = (this.proc.stdin as FileSink).end();
      if (done instanceof Promise) done.catch(() => {});
    } catch {
      // already closed
    }
  }
}

/**
 * The child's side: makes each streamed point's cell as it arrives, then puts the columns (written
 * in arrival order) and those cells in registry_id order, lays them out and writes the area file.
 * Should the ingest process die meanwhile (its signal handler removes its temp files, not this
 * process's), the file written for it is removed too, so nothing is left behind.
 */
export async function runLayoutProcess(input: AsyncIterable<Uint8Array>): Promise<void> {
  const parent = process.ppid;
  const cells = new CellNumbering(AREA_H3_RES);
  const job = await readLayoutStream(input, (lat, lng) => cells.add(lat, lng));
  const { columns, order } = inRegistryOrder(readColumnsFile(job.columnsPath));
  if (columns.count !== cells.count) throw new Error(`the columns file holds ${columns.count} facilities, ${cells.count} points were streamed`);
  const s = layoutSpatialIndex(columns, AREA_H3_RES, cells.numbers(order));
  writeSpatialFileAt(job.outPath, s, job.identity);
  if (process.ppid !== parent) {
    rmSync(job.outPath, { force: true });
    throw new Error('the ingest that started this layout has gone; its file was removed');
  }
}
