import { parseDataDate } from '../scoring/dates';
import { buildTempPath } from '../index/index-writer';
import { searchFilePath } from '../index/search-tables/file';
import { rejectsPathOf } from '../ingest/rejects';
import { printable } from './printable';
import { existsSync, rmSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { availableParallelism, loadavg } from 'node:os';
import { buildsSearchFile, ingest, ReleaseOrderError, SEARCH_FILE_FROM, UnusableInputError, type IngestSummary } from '../ingest/ingest';
import { SpatialCollector, spatialTempPaths } from '../index/area/spatial-collector';
import { parse } from './options';

const HELP = `facility-score ingest <file>... --out PATH [--previous INDEX] [--as-of YYYY-MM-DD] [--dataset-name NAME] [--fictitious] [--threads auto|1|2] [--search-file auto|separate|inside]
  Builds a facility index from ECHO exporter files (ECHO_EXPORTER.csv, any layout year) and/or
  ECHO facility-search CSV downloads; plain or gzip. The index at PATH and its area index PATH.area
  (laid out in a child process) are replaced only when the build succeeds; rows that cannot be
  indexed go to PATH.rejects.csv with the reason. See docs/ingest.md.
  --previous INDEX  the index this release follows (e.g. the one being served): its release list and
                  score history are carried into PATH, with one history entry per facility whose score,
                  components, enforcement flag or presence changed. Refused (exit 1) unless the new as-of
                  date is later than the previous index's latest release. See docs/ingest.md.
  --as-of         the date the data describes (default: inferred from the exporter's own columns,
                  else the newest file's modification date)
  --dataset-name  shown by /api/v1/status and --version (default: format + file names)
  --fictitious    declare the data invented (default: yes exactly when every ID starts with 99)
  --threads auto|1|2  2: parse and score on a worker thread while the main thread writes; 1: all on one
                  thread; auto (default): 1 when the search file is built (its own thread takes the second
                  core), else 2 when a second core is idle (1-minute load average), else 1
  --search-file auto|separate|inside  where the search tables go: separate: PATH.search, built during the
                  load on a thread of its own; inside: in the index, filled after the load; auto (default):
                  separate for inputs of 64 MB or more. See docs/search.md.
Exit codes: 0 built (even with rejected rows), 1 a file is unusable (wrong format, empty, truncated), 2 usage.`;

/**
 * Whether a worker thread would get a core of its own. With the other core busy, two threads were
 * slower than one on the national file (the split costs more CPU in total), so the worker only pays
 * when a core is free.
 */
function secondCoreIdle(): boolean {
  return availableParallelism() >= 2 && loadavg()[0]! <= availableParallelism() - 1;
}

/** Exactly YYYY-MM-DD and a real day: what the score model accepts as an as-of date (asOfDay). */
function validAsOf(s: string): boolean {
  return parseDataDate(s)?.iso === s;
}

const sec = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function summaryText(s: IngestSummary): string {
  const c = s.info.row_counts;
  const reasons = Object.entries(c)
    .filter(([k]) => k.startsWith('rejected_'))
    .map(([k, v]) => `${k.slice('rejected_'.length)} ${v}`);
  const asOfHow = { flag: 'from --as-of', inferred: 'inferred from the last-inspection date + days columns', 'file-date': "the newest file's modification date; pass --as-of to set it" }[s.asOfSource];
  const lines = [
    `ingest: built ${s.out} in ${s.seconds.toFixed(1)} s (${Math.round((c.read ?? 0) / Math.max(s.seconds, 0.001)).toLocaleString('en-US')} rows/s, ${s.threads} thread${s.threads === 2 ? 's' : ''})`,
    `  dataset   ${s.info.dataset_name}${s.info.fictitious ? '  [FICTITIOUS]' : ''}`,
    `  as of     ${s.info.as_of} (${asOfHow})`,
    `  rows      ${c.read} read: ${c.accepted} indexed${c.without_location ? ` (${c.without_location} without location)` : ''}, ${c.rejected} rejected${reasons.length ? ` (${reasons.join(', ')})` : ''}, ${c.blank} blank`,
    `  rejects   ${s.rejectsPath}`,
    `  facilities ${s.info.facility_count}, score method ${s.info.score_version}`,
    ...s.companionFiles.map((f) => `  beside it ${f.path} (${(f.ms / 1000).toFixed(1)} s)`),
    `  phases    load ${sec(s.phases.load)}, search file ${sec(s.phases.searchWait)} more, complete ${sec(s.phases.complete)}, then ${sec(s.phases.companionsWait)} waiting for the files beside it`,
    `  search    ${s.search.file ? `in the search file beside the index, built during the load (${sec(s.search.busyMs)} on its own thread)` : `in the index, filled after the load (${s.search.why})`}`,
  ];
  if (s.release.seq > 1) {
    const c = s.release.changes;
    lines.push(`  release   ${s.release.seq} of this index's history: ${c.added} added, ${c.changed} changed, ${c.removed} removed, ${c.rescored} rescored since the previous release`);
  }
  for (const [file, cols] of Object.entries(s.missingColumns)) lines.push(`  note      ${file} has no ${cols.join(', ')} column(s): not reported (null in the inputs; see docs/scoring.md)`);
  return lines.join('\n');
}

export async function ingestCommand(args: string[], _env: Record<string, string | undefined>): Promise<number> {
  const { values, positionals } = parse(args, {
    out: { type: 'string', short: 'o' },
    'as-of': { type: 'string' },
    'dataset-name': { type: 'string' },
    fictitious: { type: 'boolean' },
    threads: { type: 'string', default: 'auto' },
    'search-file': { type: 'string', default: 'auto' },
    previous: { type: 'string' },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (positionals.length === 0 || !values.out) {
    console.error(`${positionals.length === 0 ? 'no input file given' : '--out PATH is required'}\n\n${HELP}`);
    return 2;
  }
  const asOf = values['as-of'];
  if (asOf !== undefined && !validAsOf(asOf)) {
    console.error(`--as-of must be a date YYYY-MM-DD, got "${asOf}"`);
    return 2;
  }
  const searchFile = values['search-file']!;
  if (!['auto', 'separate', 'inside'].includes(searchFile)) {
    console.error(`--search-file must be auto, separate or inside, got "${searchFile}"`);
    return 2;
  }
  if (!['auto', '1', '2'].includes(values.threads!)) {
    console.error(`--threads must be auto, 1 or 2, got "${values.threads}"`);
    return 2;
  }
  const searchFileFrom = searchFile === 'separate' ? 0 : searchFile === 'inside' ? Number.POSITIVE_INFINITY : SEARCH_FILE_FROM;
  // The search file's thread takes the second core during the load: on 2 cores the producer thread
  // on top of it made the national ingest slower than with one, so auto picks one.
  const searchThread = buildsSearchFile(positionals.reduce((n, f) => n + (statSync(f, { throwIfNoEntry: false })?.size ?? 0), 0), searchFileFrom);
  const out = values.out;
  if (!existsSync(dirname(resolve(out)))) {
    console.error(`--out ${out}: directory ${dirname(resolve(out))} does not exist`);
    return 2;
  }
  const previous = values.previous;
  if (previous !== undefined && !existsSync(previous)) {
    console.error(`--previous ${previous}: no such index file`);
    return 2;
  }
  // an interrupted build leaves only temp files behind (the old index is untouched): remove them too.
  // Kept for every signal, not once: a second one (Ctrl-C pressed again, a supervisor's SIGTERM
  // after it) must not end the clean-up halfway through.
  let interrupted = false;
  const cleanup = () => {
    if (interrupted) return;
    interrupted = true;
    const area = spatialTempPaths(out);
    for (const p of [buildTempPath(out), `${buildTempPath(out)}-journal`, searchFilePath(buildTempPath(out)), buildTempPath(rejectsPathOf(out)), area.area, area.columns]) rmSync(p, { force: true });
    console.error('\ningest: interrupted; the previous index (if any) is unchanged');
    process.exit(130);
  };
  process.on('SIGINT', cleanup);
  process.on('SIGTERM', cleanup);
  try {
    const summary = await ingest({
      files: positionals,
      out,
      asOf,
      datasetName: values['dataset-name'],
      fictitious: values.fictitious ? true : undefined,
      previous,
      inline: values.threads === 'auto' ? searchThread || !secondCoreIdle() : values.threads === '1',
      searchFileFrom,
      log: (line) => console.error(printable(line)),
      progress: { tty: process.stderr.isTTY === true, write: (s) => process.stderr.write(s) },
      // The release carries the area search's spatial index (`<out>.area`), used in place by serve;
      // laid out in a child process, so the load's heap and the layout's never share one process.
      companions: [new SpatialCollector()],
    });
    console.log(printable(summaryText(summary)));
    return 0;
  } catch (e) {
    if (e instanceof ReleaseOrderError) {
      console.error(`facility-score ingest: ${e.message}; nothing was written`);
      return 1;
    }
    if (!(e instanceof UnusableInputError)) throw e;
    console.error(`facility-score ingest: ${printable(e.message)}\nNothing was written; the previous index at ${out} (if any) is unchanged.`);
    return 1;
  } finally {
    process.off('SIGINT', cleanup);
    process.off('SIGTERM', cleanup);
  }
}
