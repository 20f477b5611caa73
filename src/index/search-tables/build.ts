import { rmSync } from 'node:fs';
import { workerUrl } from '../../worker-url';
import type { IndexRow } from '../index-row';
import { docidOf } from './docids';
import { searchFilePath } from './file';
import { SEP, type FromSearchWorker, type SearchRows, type ToSearchWorker } from './build-rows';
import { searchWords } from './table';

const WORKER_URL = workerUrl('./index/search-tables/build-worker.ts');
const BATCH = 2000;
/** Rows the worker holds before writing a round (bounds its strings); tests cross many rounds with a few rows. */
const ROUND_ROWS = 100_000;

/** The row fields the search tables need. */
type Row = Pick<IndexRow, 'registry_id' | 'fac_name' | 'fac_street' | 'fac_city' | 'fac_state' | 'fac_zip' | 'fac_naics' | 'overall_score' | 'active_enforcement'>;

/** How a build's search tables were made, for the ingest summary: in their own file during the load, or in the index after it (and why). */
export type SearchOutcome = { file: true; busyMs: number } | { file: false; why: string };

/**
 * The search file (./file.ts) built while ingest loads, on a thread of its own
 * (./build-worker.ts): filling the search tables after the load was a large share of a
 * national ingest on one core, while the second core sat idle. Docids are numbered as rows arrive
 * (./docids.ts), which needs the rows in registry-ID order, as EPA's file is. A file that is
 * not, a worker that cannot start or fails: finish() then answers no file and why, and the writer
 * fills the tables in the index after the load as before, with the same content.
 */
export class SearchBuild {
  readonly tmpPath: string;
  private worker: Worker | null = null;
  private why = '';
  private lastId: string | null = null;
  /** Facilities seen so far per score: the last rank given in each. */
  private readonly ranks: number[] = [];
  private batch = emptyBatch();
  private n = 0;
  private settle: (m: FromSearchWorker) => void = () => {};
  private readonly outcome = new Promise<FromSearchWorker>((resolve) => (this.settle = resolve));

  /** `indexTmpPath`: the index's temp file; the search file is built beside it and renamed with it. */
  constructor(indexTmpPath: string, roundRows = ROUND_ROWS) {
    this.tmpPath = searchFilePath(indexTmpPath);
    rmSync(this.tmpPath, { force: true });
    try {
      this.worker = new Worker(WORKER_URL);
    } catch (e) {
      this.giveUp(`no worker thread: ${(e as Error).message}`);
      return;
    }
    this.worker.onmessage = (event: MessageEvent<FromSearchWorker>) => {
      const m = event.data;
      if (m.kind === 'error') this.giveUp(`its thread failed: ${m.message}`);
      else this.settle(m);
    };
    this.worker.onerror = (e) => this.giveUp(`its thread failed: ${e.message}`);
    this.post({ kind: 'open', path: this.tmpPath, roundRows });
  }

  /** One indexed facility (each registry ID once, in file order). */
  add(row: Row): void {
    if (this.why) return;
    const id = row.registry_id;
    const score = row.overall_score;
    if (this.lastId !== null && !(id > this.lastId)) return this.giveUp(`rows not in registry-ID order (${id} after ${this.lastId})`);
    if (!Number.isInteger(score) || score < 0) return this.giveUp(`a score that is not a whole number (${score})`);
    this.lastId = id;
    const rank = (this.ranks[score] = (this.ranks[score] ?? 0) + 1);
    const state = row.fac_state;
    const naics = row.fac_naics;
    // One text per batch crosses to the thread (a flat copy, cheaper than arrays of strings); a
    // NUL inside a filter column could not cross it exactly, so such a file is filled in the index.
    if (id.includes(SEP) || state.includes(SEP) || naics.includes(SEP)) return this.giveUp('a NUL character in a registry ID, state or NAICS code');
    const b = this.batch;
    const i = this.n++;
    b.docid[i] = docidOf(score, rank);
    b.active[i] = row.active_enforcement;
    // FTS5's ascii tokenizer splits words at NUL as at any ASCII punctuation: a space finds the same words
    const words = searchWords(row.fac_name, row.fac_street, row.fac_city, row.fac_zip);
    b.text += `${id}${SEP}${state}${SEP}${naics}${SEP}${words.includes(SEP) ? words.replaceAll(SEP, ' ') : words}${SEP}`;
    if (this.n === BATCH) this.send();
  }

  /**
   * Waits for the file to be complete, tied to its index by `identity` (indexIdentity of the index's
   * info: readers attach only a file tied to theirs); or says why there is none (the writer then
   * fills the index's own tables).
   */
  async finish(identity: string): Promise<SearchOutcome> {
    if (!this.why) {
      this.send();
      this.post({ kind: 'finish', identity });
    }
    const m = await this.outcome;
    this.stop();
    if (m.kind === 'done' && !this.why) return { file: true, busyMs: m.busyMs };
    rmSync(this.tmpPath, { force: true });
    return { file: false, why: this.why };
  }

  /** Stops the thread and removes the temp file (a failed or interrupted build). */
  abort(): void {
    if (!this.why) this.giveUp('the build was abandoned');
    this.stop();
    rmSync(this.tmpPath, { force: true });
  }

  /** From here on rows are ignored; the worker closes its file, and finish() answers at once. */
  private giveUp(why: string): void {
    if (this.why) return;
    this.why = why;
    this.batch = emptyBatch();
    this.n = 0;
    this.worker?.postMessage({ kind: 'abort' } satisfies ToSearchWorker);
    this.settle({ kind: 'error', message: why });
  }

  private stop(): void {
    this.worker?.terminate();
    this.worker = null;
  }

  private send(): void {
    if (this.n === 0 || this.why) return;
    const b = this.batch;
    const rows: SearchRows = { text: b.text, docid: b.docid.subarray(0, this.n), active: b.active.subarray(0, this.n) };
    this.post({ kind: 'rows', ...rows }, [b.docid.buffer as ArrayBuffer, b.active.buffer as ArrayBuffer]);
    this.batch = emptyBatch();
    this.n = 0;
  }

  private post(m: ToSearchWorker, transfer: ArrayBuffer[] = []): void {
    this.worker?.postMessage(m, transfer);
  }
}

function emptyBatch(): SearchRows {
  return { docid: new Float64Array(BATCH), active: new Uint8Array(BATCH), text: '' };
}
