import type { Database } from 'bun:sqlite';
import type { Log } from '../log';
import { workerUrl } from '../worker-url';
import type { CheckpointReply, CheckpointRequest } from './checkpoint-worker';

const SQLITE_DEFAULT_AUTOCHECKPOINT = 1000;

/**
 * Moves WAL checkpoints of a state file off the event loop (see checkpoint-worker.ts). The serving
 * connection stops checkpointing itself only once the worker runs; if the worker fails, it takes
 * the job back, so the WAL can never grow without bound.
 */
export class BackgroundCheckpointer {
  private stopped = false;

  private constructor(
    private readonly db: Database,
    private readonly worker: Worker,
    private readonly log: Log,
  ) {}

  /** Null when the worker could not start (the connection keeps SQLite's own checkpoints). */
  static async start(db: Database, path: string, log: Log, intervalMs = 500): Promise<BackgroundCheckpointer | null> {
    const worker = new Worker(workerUrl('./state/checkpoint-worker.ts'));
    const started = await new Promise<boolean>((resolve) => {
      worker.onmessage = (e: MessageEvent<CheckpointReply>) => resolve(e.data.kind === 'started');
      worker.onerror = () => resolve(false);
      worker.postMessage({ kind: 'start', path, intervalMs } satisfies CheckpointRequest);
    });
    if (!started) {
      worker.terminate();
      log({ level: 'warn', msg: 'background WAL checkpoints unavailable; the state file checkpoints on commit' });
      return null;
    }
    const c = new BackgroundCheckpointer(db, worker, log);
    db.exec('PRAGMA wal_autocheckpoint = 0');
    worker.onmessage = (e: MessageEvent<CheckpointReply>) => {
      if (e.data.kind === 'failed') c.fallBack(e.data.message);
    };
    worker.onerror = (e) => c.fallBack(e.message || 'worker error');
    worker.unref();
    return c;
  }

  private fallBack(reason: string): void {
    if (this.stopped) return;
    this.stopped = true;
    this.worker.terminate();
    try {
      this.db.exec(`PRAGMA wal_autocheckpoint = ${SQLITE_DEFAULT_AUTOCHECKPOINT}`);
    } catch {
      // The connection is closing; nothing left to checkpoint for.
    }
    this.log({ level: 'warn', msg: `background WAL checkpoint failed (${reason}); the state file checkpoints on commit again` });
  }

  /** Final checkpoint and end of the thread; call before closing the connection. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 2000);
      this.worker.onmessage = (e: MessageEvent<CheckpointReply>) => {
        if (e.data.kind === 'stopped') {
          clearTimeout(timer);
          resolve();
        }
      };
      this.worker.postMessage({ kind: 'stop' } satisfies CheckpointRequest);
    });
    this.worker.terminate();
  }
}
