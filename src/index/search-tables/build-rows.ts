/**
 * What crosses between ingest's main thread (./build.ts) and the search file's thread
 * (./build-worker.ts). A module of its own: importing the worker's module would run it here.
 */

/** Between the text fields of a batch: NUL, which no registry ID, state or NAICS code handed over contains (./build.ts). */
export const SEP = '\u0000';

/**
 * One batch of rows: `docid` and `active` transferred; `text` holds each row's registry ID, state,
 * NAICS code and words, each followed by SEP (one flat string copies faster than arrays of strings).
 */
export type SearchRows = { docid: Float64Array; active: Uint8Array; text: string };
export type ToSearchWorker = { kind: 'open'; path: string; roundRows: number } | ({ kind: 'rows' } & SearchRows) | { kind: 'finish'; identity: string } | { kind: 'abort' };
export type FromSearchWorker = { kind: 'done'; busyMs: number } | { kind: 'error'; message: string };
