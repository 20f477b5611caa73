/**
 * The search file built during ingest's load, on its own thread and with its own SQLite connection
 * and cache (./build.ts is the main thread's side; ./file.ts says why a file of its
 * own). Rows arrive in registry-ID order with their docids (./docids.ts), are held per score,
 * and go into the tables a round at a time in docid order: FTS5 wants ascending rowids within a run
 * (a smaller one makes it flush its term buffer), and each round is one ascending run, so a national
 * file makes a few dozen segments more, all merged by one 'optimize' at the end.
 */
import { Database } from 'bun:sqlite';
import { BUCKET } from './docids';
import { SEARCH_META_DDL } from './file';
import { SEP, type FromSearchWorker, type SearchRows, type ToSearchWorker } from './build-rows';
import { optimizeSearch, SEARCH_DDL, startSearchFill } from './table';

declare const self: Worker;

type Held = { docid: number; id: string; state: string; naics: string; active: number; words: string };

let db: Database | null = null;
let insertDoc: ReturnType<Database['prepare']>;
let insertWords: ReturnType<Database['prepare']>;
let roundRows = 100_000;
let busyMs = 0;
/** After an error or an abort every later message is ignored (the main thread fills the tables itself). */
let stopped = false;
let held = 0;
/** Rows held, per score, each list in docid order (rows arrive in registry-ID order). */
let buckets: Held[][] = [];

function open(path: string, rows: number): void {
  roundRows = rows;
  db = new Database(path, { create: true, strict: true });
  // A scratch file until ingest puts it in place: durability per row is moot (see IndexWriter).
  db.exec('PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -32768;');
  db.exec(SEARCH_DDL);
  db.exec(SEARCH_META_DDL);
  startSearchFill(db);
  db.exec('BEGIN');
  insertDoc = db.prepare('INSERT INTO search_doc VALUES (?1, ?2, ?3, ?4, ?5, ?6)');
  insertWords = db.prepare('INSERT INTO facility_search (rowid, words) VALUES (?1, ?2)');
}

function hold(m: SearchRows): void {
  const f = m.text.split(SEP);
  for (let i = 0; i < m.docid.length; i++) {
    const docid = m.docid[i]!;
    const k = i * 4;
    (buckets[Math.floor(docid / BUCKET)] ??= []).push({ docid, id: f[k]!, state: f[k + 1]!, naics: f[k + 2]!, active: m.active[i]!, words: f[k + 3]! });
  }
  held += m.docid.length;
  if (held >= roundRows) writeRound();
}

function writeRound(): void {
  for (const b of buckets) if (b) for (const r of b) insertDoc.run(r.docid, r.id, r.state, r.naics, Math.floor(r.docid / BUCKET), r.active);
  for (const b of buckets) if (b) for (const r of b) insertWords.run(r.docid, r.words);
  buckets = [];
  held = 0;
}

function close(): void {
  if (db?.inTransaction) db.exec('ROLLBACK');
  db?.close();
  db = null;
  buckets = [];
}

self.onmessage = (event: MessageEvent<ToSearchWorker>) => {
  const m = event.data;
  if (stopped) return;
  const started = performance.now();
  try {
    switch (m.kind) {
      case 'open':
        return open(m.path, m.roundRows);
      case 'rows':
        hold(m);
        busyMs += performance.now() - started;
        return;
      case 'finish':
        writeRound();
        optimizeSearch(db!);
        db!.prepare("INSERT INTO search_meta VALUES ('index_identity', ?1)").run(m.identity);
        db!.exec('COMMIT');
        db!.close();
        db = null;
        busyMs += performance.now() - started;
        self.postMessage({ kind: 'done', busyMs } satisfies FromSearchWorker);
        return;
      case 'abort':
        stopped = true;
        return close();
    }
  } catch (e) {
    stopped = true;
    close();
    self.postMessage({ kind: 'error', message: (e as Error).message } satisfies FromSearchWorker);
  }
};
