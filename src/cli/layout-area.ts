import { LAYOUT_COMMAND, runLayoutJob } from '../index/area/spatial-layout-process';

/**
 * `facility-score __layout-area COLUMNS OUT IDENTITY`: hidden, run by ingest on itself (the
 * compiled binary included) to lay out the area index in a fresh process
 * (src/index/area/spatial-layout-process.ts). An error becomes one line on stderr and exit 1 (./run.ts).
 */
export async function layoutAreaCommand(args: string[]): Promise<number> {
  const [columnsPath, outPath, identity] = args;
  if (!columnsPath || !outPath || !identity || args.length !== 3) {
    console.error(`usage: facility-score ${LAYOUT_COMMAND} COLUMNS_FILE OUT_FILE IDENTITY (run by ingest, not by hand)`);
    return 2;
  }
  runLayoutJob({ columnsPath, outPath, identity });
  return 0;
}
