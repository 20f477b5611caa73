/**
 * Worker thread that checkpoints the state file's WAL for the serving process. SQLite's automatic
 * checkpoint runs inside whichever commit crosses 1,000 WAL pages and fsyncs there: on the event
 * loop that is a stall of every in-flight request, again and again under load. Here it
 * runs on its own connection and thread; PASSIVE never blocks the writer.
 */
import { Database } from 'bun:sqlite';

declare const self: Worker;

export type CheckpointRequest = { kind: 'start'; path: string; intervalMs: number } | { kind: 'stop' };
export type CheckpointReply = { kind: 'started' } | { kind: 'failed'; message: string } | { kind: 'stopped' };

let db: Database | undefined;
let timer: ReturnType<typeof setInterval> | undefined;

function checkpoint(): void {
  try {
    db?.exec('PRAGMA wal_checkpoint(PASSIVE)');
  } catch (e) {
    // PASSIVE never waits and never fails for contention (it just copies fewer frames), so an error
    // here is real (I/O, a closed file): the owner then takes the checkpoints back.
    self.postMessage({ kind: 'failed', message: (e as Error).message } satisfies CheckpointReply);
  }
}

self.onmessage = (event: MessageEvent<CheckpointRequest>) => {
  const m = event.data;
  if (m.kind === 'start') {
    try {
      db = new Database(m.path, { readwrite: true, create: false });
      db.exec('PRAGMA busy_timeout = 1000');
      timer = setInterval(checkpoint, m.intervalMs);
      self.postMessage({ kind: 'started' } satisfies CheckpointReply);
    } catch (e) {
      self.postMessage({ kind: 'failed', message: (e as Error).message } satisfies CheckpointReply);
    }
    return;
  }
  clearInterval(timer);
  checkpoint();
  db?.close();
  self.postMessage({ kind: 'stopped' } satisfies CheckpointReply);
};
