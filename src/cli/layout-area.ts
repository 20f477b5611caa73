import { LAYOUT_COMMAND, runLayoutProcess } from '../area/spatial-layout-process';

/**
 * `facility-score __layout-area`: hidden, run by ingest on itself (the compiled binary included)
 * to lay out the area index in a process of its own, fed over stdin while the load goes
 * (src/area/spatial-layout-process.ts, src/area/layout-stream.ts). An error becomes one line on
 * stderr and exit 1 (./run.ts).
 */
export async function layoutAreaCommand(args: string[]): Promise<number> {
  if (args.length !== 0) {
    console.error(`usage: facility-score ${LAYOUT_COMMAND} < STREAM (run by ingest, not by hand)`);
    return 2;
  }
  await runLayoutProcess(Bun.stdin.stream());
  return 0;
}
