import { rmSync } from 'node:fs';
import { selfCommand } from '../../worker-url';
import { readColumnsFile } from './spatial-columns-file';
import { writeSpatialFileAt } from './spatial-file';
import { AREA_H3_RES } from '../../area/spatial-index';
import { layoutArea } from './unplaced';

/**
 * The area layout in a process of its own. At national scale the ingest process holds the parser's
 * heap when its load ends (a full GC does not hand it back to the OS); laid out there, the layout
 * came on top of it. A fresh process maps the collected columns from a temp file and lays them out
 * with none of that heap, while the ingest process waits (docs/benchmarks.md, Ingest). A Worker would
 * not do: it shares the process, so its heap adds to the same RSS.
 */

/** The hidden CLI subcommand a layout process runs (src/cli/run.ts); not in the usage text. */
export const LAYOUT_COMMAND = '__layout-area';

/** What a layout process is asked to do: lay out the columns file, write the area file at exactly `outPath`. */
export type LayoutJob = { columnsPath: string; outPath: string; identity: string };

/**
 * Runs `job` in a child process started with `command` (default: this program with the hidden
 * subcommand) and waits for it. On failure, no file is left at `outPath` and the error is one line:
 * the child's exit code or signal and its last line of stderr.
 */
export async function layoutInChildProcess(job: LayoutJob, command: string[] = selfCommand()): Promise<void> {
  let proc: ReturnType<typeof Bun.spawn>;
  try {
    proc = Bun.spawn([...command, LAYOUT_COMMAND, job.columnsPath, job.outPath, job.identity], { stdin: 'ignore', stdout: 'ignore', stderr: 'pipe' });
  } catch (e) {
    throw new Error(`the area index could not be laid out: its process did not start (${(e as Error).message})`);
  }
  const [code, stderr] = await Promise.all([proc.exited, new Response(proc.stderr as ReadableStream).text()]);
  if (code === 0 && proc.signalCode === null) return;
  rmSync(job.outPath, { force: true });
  const last = stderr.split('\n').map((l) => l.trim()).filter(Boolean).at(-1);
  const how = proc.signalCode ? `was killed by ${proc.signalCode}` : `exited with code ${code}`;
  throw new Error(`the area index could not be laid out: its process (pid ${proc.pid}) ${how}${last ? `: ${last}` : ''}`);
}

/**
 * The child's side: maps the columns, lays them out and writes the area file. Should the ingest
 * process die meanwhile (its signal handler removes its temp files, not this process's), the file
 * written for it is removed too, so nothing is left behind.
 */
export function runLayoutJob(job: LayoutJob): void {
  const parent = process.ppid;
  const s = layoutArea(readColumnsFile(job.columnsPath), AREA_H3_RES);
  writeSpatialFileAt(job.outPath, s, job.identity);
  if (process.ppid !== parent) {
    rmSync(job.outPath, { force: true });
    throw new Error('the ingest that started this layout has gone; its file was removed');
  }
}
