import type { Log } from '../log';
import { workerUrl } from '../worker-url';
import { Admission } from './admission';
import type { RenderJob } from './jobs';
import type { RenderSource } from './source';
import { SOURCES_KEPT, type JobMessage, type JobReply } from './worker-protocol';

export type RenderPoolOptions = {
  /** Worker threads, started on first use. */
  workers: number;
  /** Heavy requests that may wait for a worker beyond those running. */
  queue: number;
  /** Heavy requests one account may have in progress at once. */
  perAccount: number;
  log: Log;
  /** The worker module; default ./worker.ts (tests give one that can be held). */
  workerUrl?: URL;
  /** Posted to each worker as it starts, before any job (a test worker's controls). */
  init?: unknown;
};

type Pending = { job: RenderJob; source: RenderSource; resolve: (body: Uint8Array) => void; reject: (e: Error) => void };
type Slot = { worker: Worker; known: Set<number>; job: (Pending & { id: number }) | null };

/**
 * The bounded pool that makes the heavy answers (site reports in every form, dossier PDFs) off the
 * thread that answers requests (docs/operations.md, "Render pool"): a lookup never waits behind a
 * render. Jobs wait in arrival order for the first free worker; `admission` bounds how many may be
 * in progress per account and in all. A worker that dies fails its job (a 500) and is replaced by
 * the next job that needs one.
 */
export class RenderPool {
  readonly admission: Admission;
  private readonly slots: Slot[] = [];
  private readonly waiting: Pending[] = [];
  private nextId = 0;
  private closed = false;
  /** Workers that died (crashed or exited) since start; each was replaced when next needed. */
  deaths = 0;
  private readonly url: URL;

  constructor(private readonly options: RenderPoolOptions) {
    this.admission = new Admission(options.perAccount, options.workers + options.queue);
    this.url = options.workerUrl ?? workerUrl('./render/worker.ts');
  }

  /** The body of `job`'s answer, made by a worker from `source`'s index. */
  run(source: RenderSource, job: RenderJob): Promise<Uint8Array> {
    if (this.closed) return Promise.reject(new Error('the render pool is closed'));
    return new Promise((resolve, reject) => {
      this.waiting.push({ job, source, resolve, reject });
      this.dispatch();
    });
  }

  /** Workers running a job, jobs waiting for one. */
  get state(): { workers: number; busy: number; waiting: number } {
    return { workers: this.slots.length, busy: this.slots.filter((s) => s.job).length, waiting: this.waiting.length };
  }

  /** Stops every worker; jobs in progress or waiting fail. */
  close(): void {
    this.closed = true;
    for (const slot of this.slots.splice(0)) {
      slot.worker.terminate();
      slot.job?.reject(new Error('the render pool closed'));
    }
    for (const p of this.waiting.splice(0)) p.reject(new Error('the render pool closed'));
  }

  private dispatch(): void {
    while (this.waiting.length > 0) {
      const slot = this.slots.find((s) => !s.job) ?? (this.slots.length < this.options.workers ? this.spawn() : null);
      if (!slot) return;
      const next = this.waiting.shift()!;
      const { id: sourceId, spec } = next.source.current();
      const id = ++this.nextId;
      slot.job = { ...next, id };
      const message: JobMessage = { id, sourceId, job: next.job, source: slot.known.has(sourceId) ? undefined : spec };
      slot.known.add(sourceId);
      // the worker keeps the sources it was given last, as many as this (./worker.ts)
      if (slot.known.size > SOURCES_KEPT) slot.known.delete(slot.known.values().next().value!);
      slot.worker.postMessage(message);
    }
  }

  private spawn(): Slot {
    const worker = new Worker(this.url);
    const slot: Slot = { worker, known: new Set(), job: null };
    // an idle pool does not keep the process alive
    worker.unref();
    worker.onmessage = (event: MessageEvent<JobReply>) => {
      const reply = event.data;
      const job = slot.job;
      if (!job || job.id !== reply.id) return;
      slot.job = null;
      if (reply.ok) job.resolve(reply.body);
      else {
        this.options.log({ level: 'error', msg: `render job ${job.job.kind} failed on its worker: ${reply.message}` });
        job.reject(new Error(`render job failed: ${reply.message}`));
      }
      this.dispatch();
    };
    const fail = (why: string) => {
      const i = this.slots.indexOf(slot);
      if (i < 0) return;
      this.slots.splice(i, 1);
      if (!this.closed) this.deaths++;
      worker.terminate();
      this.options.log({ level: 'error', msg: `render worker died (${why})${slot.job ? ` during a ${slot.job.job.kind} job` : ''}; it is replaced` });
      slot.job?.reject(new Error(`render worker died: ${why}`));
      slot.job = null;
      if (!this.closed) this.dispatch();
    };
    worker.onerror = (event) => fail(event.message || 'uncaught error');
    worker.addEventListener('close', () => fail('exited'));
    if (this.options.init !== undefined) worker.postMessage({ init: this.options.init });
    this.slots.push(slot);
    return slot;
  }
}
