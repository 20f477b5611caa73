import { AppError } from '../errors';
import type { SpatialIndex } from './spatial-index';

/** Seconds a client is asked to wait (Retry-After) while the area index is still being made. */
export const AREA_RETRY_AFTER_S = 5;

/**
 * The area search's spatial index as the app receives it: ready now (loaded from the release's
 * `.area` file in milliseconds, or built for a small index), or later (being built on a worker
 * thread for an index that carries none). `serve` makes it (src/ops/index-preparer.ts) and passes
 * it into `createApp`; routes that need it call `require()`, everything else never waits for it.
 */
export class SpatialHandle {
  private value: SpatialIndex | null = null;
  private failure: Error | null = null;
  /** Where the index came from, once ready: the release's area file, a worker thread's build, the main thread's build, or given ready-made. */
  source: 'file' | 'worker' | 'main thread' | 'given' | null = null;
  /** Settles when the index is ready (or could not be made). */
  readonly ready: Promise<SpatialIndex>;
  private settle!: { resolve: (s: SpatialIndex) => void; reject: (e: Error) => void };

  private constructor() {
    this.ready = new Promise<SpatialIndex>((resolve, reject) => (this.settle = { resolve, reject }));
    // Nobody has to await `ready`: a failure is reported through `state` and `require()`.
    this.ready.catch(() => undefined);
  }

  /** A handle that is ready now. */
  static of(spatial: SpatialIndex, source: 'file' | 'given' = 'given'): SpatialHandle {
    const h = new SpatialHandle();
    h.resolve(spatial, source);
    return h;
  }

  /** A handle that becomes ready when its maker calls `resolve` (or fails with `reject`). */
  static pending(): SpatialHandle {
    return new SpatialHandle();
  }

  resolve(spatial: SpatialIndex, source: NonNullable<SpatialHandle['source']> = 'given'): void {
    if (this.value || this.failure) return;
    this.value = spatial;
    this.source = source;
    this.settle.resolve(spatial);
  }

  reject(error: Error): void {
    if (this.value || this.failure) return;
    this.failure = error;
    this.settle.reject(error);
  }

  get state(): 'loading' | 'ready' | 'failed' {
    return this.value ? 'ready' : this.failure ? 'failed' : 'loading';
  }

  /** The index if ready, else null. */
  get current(): SpatialIndex | null {
    return this.value;
  }

  /**
   * The index, or 503 SERVICE_UNAVAILABLE with Retry-After while it is still being made (the
   * request is answered at once rather than held: docs/area-and-portfolio.md).
   */
  require(): SpatialIndex {
    if (this.value) return this.value;
    if (this.failure) throw new AppError('SERVICE_UNAVAILABLE', 'The area search is unavailable on this instance: its index could not be loaded');
    throw new AppError('SERVICE_UNAVAILABLE', `The area search is starting: its index is still loading; retry in ${AREA_RETRY_AFTER_S} s`, {
      'retry-after': String(AREA_RETRY_AFTER_S),
    });
  }
}
