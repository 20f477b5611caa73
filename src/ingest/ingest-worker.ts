/**
 * Ingest's producer thread: reads, parses, maps and scores (src/ingest/producer.ts) while the
 * main thread inserts. Rows travel in batches; at most MAX_IN_FLIGHT unacknowledged batches, so a
 * slow disk on the writing side never lets parsed rows pile up in memory.
 */
import type { AsOfSource } from './as-of';
import type { Field, SourceFormat } from './columns';
import { TruncatedFileError, UnusableInputError } from './errors';
import type { DetailDictionary } from '../index/facility-detail';
import type { IndexRow } from '../index/index-row';
import { produce, type Reject } from './producer';

declare const self: Worker;

export type ToWorker = { kind: 'start'; files: string[]; asOf?: string } | { kind: 'ack' };
export type FromWorker =
  | { kind: 'ready' }
  | { kind: 'header'; file: string; format: SourceFormat; missing: Field[]; evidence: string[] }
  | { kind: 'rows'; rows: IndexRow[]; bytes: number; read: number; dictionary: DetailDictionary }
  | { kind: 'rejects'; rejects: Reject[] }
  | { kind: 'blank' }
  | { kind: 'fileDone'; name: string; sha256: string }
  | { kind: 'asOf'; date: string; source: AsOfSource }
  | { kind: 'done' }
  | { kind: 'error'; message: string; unusable: boolean; truncated: boolean };

const MAX_IN_FLIGHT = 8;
let credits = MAX_IN_FLIGHT;
let wake: (() => void) | null = null;
let rejects: Reject[] = [];
const post = (m: FromWorker) => self.postMessage(m);
const flushRejects = () => {
  if (rejects.length) post({ kind: 'rejects', rejects });
  rejects = [];
};

self.onmessage = async (event: MessageEvent<ToWorker>) => {
  const msg = event.data;
  if (msg.kind === 'ack') {
    credits++;
    wake?.();
    wake = null;
    return;
  }
  try {
    await produce(msg.files, msg.asOf, {
      header: (file, format, missing, evidence) => post({ kind: 'header', file, format, missing, evidence }),
      rows: async (rows, bytes, read, dictionary) => {
        flushRejects();
        while (credits <= 0) await new Promise<void>((r) => (wake = r));
        credits--;
        post({ kind: 'rows', rows, bytes, read, dictionary });
      },
      reject: (r) => {
        rejects.push(r);
        if (rejects.length >= 500) flushRejects();
      },
      blank: () => post({ kind: 'blank' }),
      fileDone: (name, sha256) => {
        flushRejects();
        post({ kind: 'fileDone', name, sha256 });
      },
      asOf: (date, source) => post({ kind: 'asOf', date, source }),
    });
    flushRejects();
    post({ kind: 'done' });
  } catch (e) {
    flushRejects();
    post({ kind: 'error', message: (e as Error).message, unusable: e instanceof UnusableInputError, truncated: e instanceof TruncatedFileError });
  }
};

post({ kind: 'ready' });
