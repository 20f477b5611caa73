import { renameSync, rmSync, statSync } from 'node:fs';
import { workerUrl } from '../worker-url';
import { SCORE_VERSION } from '../scoring/score';
import type { RecordedRelease } from '../index/history-tables/carry-forward';
import { buildTempPath, IndexWriter } from '../index/index-writer';
import { SearchBuild, type SearchOutcome } from '../index/search-tables/build';
import { SEARCH_CHECKSUM_KEY, searchFileChecksum, searchFilePath } from '../index/search-tables/file';
import { indexIdentity } from '../index/identity';
import type { IndexInfo } from '../index/model';
import type { AsOfSource } from './as-of';
import type { SourceFormat } from './columns';
import { TruncatedFileError, UnusableInputError } from './errors';
import type { FromWorker, ToWorker } from './ingest-worker';
import type { IndexRow } from '../index/index-row';
import { produce, type ProducerSink, type Reject } from './producer';
import { checkMovesForward, readPrevious, ReleaseOrderError } from './previous';
import { Progress, type ProgressOptions } from './progress';
import { RejectsWriter } from './rejects';
import { REJECT_REASONS, type RejectReason } from './row-mapper';

/** Bumped when ingest's reading of the files changes (so `scripts/sample.ts ensure` rebuilds). */
export const INGEST_VERSION = '3'; // 2: per-program and FEC columns, null for absent columns; 3: program IDs

export { ReleaseOrderError, UnusableInputError };

export type IngestOptions = {
  files: string[];
  out: string;
  /** YYYY-MM-DD; default: inferred from the data (see docs/ingest.md), else the newest file's date. */
  asOf?: string;
  datasetName?: string;
  /** Declares the data invented; default: true exactly when every indexed ID starts with 99. */
  fictitious?: boolean;
  log: (line: string) => void;
  progress?: ProgressOptions;
  /** How many rejected rows are printed as they happen (all go to the rejects CSV). */
  showRejects?: number;
  /** Parse in this thread instead of a worker (the worker is used when it can be started). */
  inline?: boolean;
  /** The index this release follows: its releases and history are carried into `out` (docs/ingest.md). */
  previous?: string;
  /**
   * Tests only: the score method name recorded for this build (default SCORE_VERSION), so two real
   * releases of different method versions can be built with one model.
   */
  scoreVersion?: string;
  /** Files made from the indexed rows and put in place beside the index with it (the release's area index: src/cli/ingest.ts). */
  companions?: IngestCompanion[];
  /**
   * Inputs of at least this many bytes (all files) get their search tables in a file of their own,
   * `<out>.search`, built on a second thread during the load (src/index/search-tables/file.ts); smaller ones
   * keep them in the index, filled after the load. Default SEARCH_FILE_FROM; tests set 0.
   */
  searchFileFrom?: number;
};

/**
 * 64 MB of input: below it the search fill is short and one file is
 * simpler to carry (the bundled sample, tests); EPA's national file is far larger.
 */
export const SEARCH_FILE_FROM = 64 * 1024 * 1024;

/** Whether inputs of `totalBytes` get the search file (the CLI asks too: its thread then takes the second core). */
export function buildsSearchFile(totalBytes: number, searchFileFrom = SEARCH_FILE_FROM): boolean {
  return totalBytes >= searchFileFrom;
}

/**
 * Something a release carries beside its index, made from the rows indexed (each registry ID once,
 * in file order) without reading the table again: e.g. the area search's spatial index
 * (src/index/area/spatial-collector.ts). Written under a temp name once the index is complete (closed,
 * still under its own temp name); both are then renamed into place. A companion that fails fails
 * the ingest: nothing is put in place, as for any other failure.
 */
export type IngestCompanion = {
  add(row: IndexRow): void;
  prepareBeside(indexPath: string, info: IndexInfo): Promise<{ tmpPath: string; path: string; ms: number }>;
};

export type IngestSummary = {
  info: IndexInfo;
  out: string;
  rejectsPath: string;
  formats: SourceFormat[];
  asOfSource: AsOfSource;
  missingColumns: Record<string, string[]>;
  seconds: number;
  threads: 1 | 2;
  /** The release written: its seq in the index's history and the facilities changed since the previous one. */
  release: RecordedRelease;
  /** Files the companions wrote beside the index, with the milliseconds each took (from the end of the load: they run while the index is completed). */
  companionFiles: { path: string; ms: number }[];
  /**
   * Where the time went, in ms: reading and writing the rows; waiting for the search file's thread to
   * finish; completing the index (peers, the search tables when in the index, statistics); then
   * waiting for the companions (which run while the index is completed).
   */
  phases: { load: number; searchWait: number; complete: number; companionsWait: number };
  /** How the search tables were made: in their own file during the load, or in the index after it (and why). */
  search: SearchOutcome;
};

const WORKER_URL = workerUrl('./ingest/ingest-worker.ts');

const FORMAT_LABEL: Record<SourceFormat, string> = { 'echo-exporter': 'ECHO exporter', 'echo-facility-search': 'ECHO facility search' };

/** Builds the index at `out` from the files, atomically: on any failure the previous index is untouched. */
export async function ingest(opts: IngestOptions): Promise<IngestSummary> {
  const started = performance.now();
  let total = 0;
  for (const f of opts.files) {
    const st = statSync(f, { throwIfNoEntry: false });
    if (!st?.isFile()) throw new UnusableInputError(`${f}: no such file`);
    total += st.size;
  }
  const previous = opts.previous === undefined ? null : readPrevious(opts.previous);
  const writer = new IndexWriter(opts.out, previous);
  const searchFileFrom = opts.searchFileFrom ?? SEARCH_FILE_FROM;
  const search = buildsSearchFile(total, searchFileFrom) ? new SearchBuild(buildTempPath(opts.out)) : null;
  const rejects = new RejectsWriter(opts.out);
  // without_location: accepted rows with no usable coordinates (indexed, never in the area search)
  const counts = { read: 0, accepted: 0, rejected: 0, blank: 0, without_location: 0 };
  const byReason = new Map<RejectReason, number>();
  const progress = opts.progress ? new Progress(total, opts.progress) : null;
  const sources: IndexInfo['sources'] = [];
  const formats: SourceFormat[] = [];
  const missingColumns: Record<string, string[]> = {};
  let asOf = '';
  let asOfSource: AsOfSource = 'flag';
  let allFictitious = true;
  let evidenceKeys: string[] | null = null;
  let shown = 0;
  const companions = opts.companions ?? [];
  const prepared: { tmpPath: string; path: string; ms: number }[] = [];
  let settled: Promise<PromiseSettledResult<{ tmpPath: string; path: string; ms: number }>[]> | null = null;

  const reject = (r: Reject) => {
    counts.rejected++;
    byReason.set(r.reason, (byReason.get(r.reason) ?? 0) + 1);
    rejects.add(r.file, r.line, r.reason, r.detail, r.registry_id, r.fields);
    if (shown < (opts.showRejects ?? 10)) {
      shown++;
      const line = `  rejected ${r.file}:${r.line} ${r.reason}: ${r.detail}`;
      // Off the bar's line: on a terminal the bar is redrawn below the reject, not appended to it.
      if (progress) progress.printLine(line, opts.log);
      else opts.log(line);
    }
  };
  const sink: ProducerSink = {
    header: (file, format, missing, evidence) => {
      formats.push(format);
      // a key is reported when every file has its column: a row of a file without it reads null, not empty
      evidenceKeys = evidenceKeys === null ? evidence : evidenceKeys.filter((k) => evidence.includes(k));
      if (missing.length) missingColumns[file] = missing;
    },
    rows: (rows, bytes, read, dictionary) => {
      writer.addDictionary(dictionary);
      // The producer rejects duplicates with their file and line (producer.ts); one reaching the
      // writer would be a bug there, not a row to reject without a source: addRows throws.
      writer.addRows(rows);
      for (const row of rows) {
        counts.accepted++;
        if (row.lat === null) counts.without_location++;
        for (const c of companions) c.add(row);
        search?.add(row);
        if (allFictitious && !row.registry_id.startsWith('99')) allFictitious = false;
      }
      progress?.update(read, bytes);
    },
    reject,
    blank: () => void counts.blank++,
    fileDone: (name, sha256) => void sources.push({ name, sha256 }),
    asOf: (date, source) => {
      // refused as soon as the date is known, before any row is written
      if (previous) checkMovesForward(date, previous);
      [asOf, asOfSource] = [date, source];
    },
  };

  try {
    const threads = opts.inline ? await runInline(opts, sink) : await runInWorker(opts, sink);
    progress?.done();
    counts.read = counts.accepted + counts.rejected + counts.blank;
    if (counts.accepted === 0) throw new UnusableInputError(`no row could be indexed (${counts.rejected} rejected; the first ones are shown above)`);
    const row_counts: Record<string, number> = { ...counts };
    for (const r of REJECT_REASONS) if (byReason.has(r)) row_counts[`rejected_${r}`] = byReason.get(r)!;
    const fictitious = opts.fictitious ?? allFictitious;
    const labels = [...new Set(formats.map((f) => FORMAT_LABEL[f]))].join(' + ');
    const loaded = performance.now();
    writer.setMeta('ingest_version', INGEST_VERSION);
    writer.setMeta('evidence_reported', JSON.stringify(evidenceKeys ?? []));
    const info = writer.describe({
      dataset_name: opts.datasetName ?? `${fictitious ? 'FICTITIOUS ' : ''}${labels}: ${sources.map((s) => s.name).join(', ')}`,
      as_of: asOf,
      score_version: opts.scoreVersion ?? SCORE_VERSION,
      fictitious,
      built_at: new Date().toISOString(),
      sources,
      row_counts,
    });
    // The companions (the area layout, in a process of its own) run while this thread completes the
    // index: each is started now and awaited after; none is left unawaited on any path.
    settled = Promise.allSettled(companions.map((c) => c.prepareBeside(opts.out, info)));
    // ...and while the search file's thread writes its last round and merges
    const searchFrom = performance.now();
    const built: SearchOutcome = search
      ? await search.finish(indexIdentity(info))
      : { file: false, why: searchFileFrom === Number.POSITIVE_INFINITY ? 'asked for: --search-file inside' : `an input under ${Math.round(searchFileFrom / 2 ** 20)} MB` };
    const searchWaited = performance.now();
    // The search file is complete and closed: the index records its bytes' checksum, checked at every open.
    if (built.file) writer.setMeta(SEARCH_CHECKSUM_KEY, searchFileChecksum(search!.tmpPath));
    writer.complete(built.file ? 'elsewhere' : 'fill');
    if (built.file) {
      prepared.push({ tmpPath: search!.tmpPath, path: searchFilePath(opts.out), ms: built.busyMs });
    }
    const completed = performance.now();
    const outcomes = await settled;
    for (const o of outcomes) if (o.status === 'fulfilled') prepared.push(o.value);
    const failed = outcomes.find((o) => o.status === 'rejected');
    if (failed) throw new Error(`${(failed.reason as Error).message}; nothing was put in place (the previous index at ${opts.out}, if any, is unchanged)`);
    writer.commit();
    for (const p of prepared) renameSync(p.tmpPath, p.path);
    // a search file of an earlier release at this path would only be ignored (it is tied to that index): it goes
    if (!built.file) rmSync(searchFilePath(opts.out), { force: true });
    await rejects.finish();
    const companionFiles = prepared.map(({ path, ms }) => ({ path, ms }));
    const phases = { load: loaded - started, searchWait: searchWaited - searchFrom, complete: completed - searchWaited, companionsWait: performance.now() - completed };
    return { info, out: opts.out, rejectsPath: rejects.path, formats, asOfSource, missingColumns, seconds: (performance.now() - started) / 1000, threads, release: writer.release!, companionFiles, phases, search: built };
  } catch (e) {
    progress?.done();
    search?.abort();
    writer.abort();
    await rejects.abort();
    // companions still running when the index failed are waited for, so their files can go too
    if (settled) for (const o of await settled) if (o.status === 'fulfilled') prepared.push(o.value);
    for (const p of prepared) rmSync(p.tmpPath, { force: true });
    throw e;
  }
}

async function runInline(opts: IngestOptions, sink: ProducerSink): Promise<1> {
  await produce(opts.files, opts.asOf, sink);
  return 1;
}

/**
 * Parsing and scoring on a worker thread, inserts here: the two halves cost about the same, so two cores
 * nearly halve the wall time. Falls back to one thread when the worker cannot start (e.g. a binary
 * built without the worker entry point).
 */
async function runInWorker(opts: IngestOptions, sink: ProducerSink): Promise<1 | 2> {
  let worker: Worker;
  try {
    worker = new Worker(WORKER_URL);
  } catch {
    return runInline(opts, sink);
  }
  const outcome = await new Promise<'done' | 'no-worker' | Error>((resolve) => {
    let started = false;
    const send = (m: ToWorker) => worker.postMessage(m);
    worker.onerror = (e) => resolve(started ? new Error(`ingest worker failed: ${e.message}`) : 'no-worker');
    worker.onmessage = (event: MessageEvent<FromWorker>) => {
      const m = event.data;
      try {
        switch (m.kind) {
          case 'ready':
            started = true;
            return send({ kind: 'start', files: opts.files, asOf: opts.asOf });
          case 'header':
            return sink.header(m.file, m.format, m.missing, m.evidence);
          case 'rows':
            sink.rows(m.rows, m.bytes, m.read, m.dictionary);
            return send({ kind: 'ack' });
          case 'rejects':
            return m.rejects.forEach(sink.reject);
          case 'blank':
            return sink.blank();
          case 'fileDone':
            return sink.fileDone(m.name, m.sha256);
          case 'asOf':
            return sink.asOf(m.date, m.source);
          case 'done':
            return resolve('done');
          case 'error':
            return resolve(m.truncated ? new TruncatedFileError(m.message) : m.unusable ? new UnusableInputError(m.message) : new Error(m.message));
        }
      } catch (e) {
        resolve(e as Error);
      }
    };
  });
  worker.terminate();
  if (outcome === 'no-worker') return runInline(opts, sink);
  if (outcome instanceof Error) throw outcome;
  return 2;
}
