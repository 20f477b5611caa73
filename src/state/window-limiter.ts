import type { CountResult } from './model';

/** Default ceiling on tracked keys, which bounds the limiter's memory (docs/benchmarks.md, Demo lookup). */
export const DEFAULT_MAX_KEYS = 250_000;

/**
 * In-process rolling-window limiter: per key, the times of its last hits inside the window.
 * A hit is allowed when fewer than `limit` fall inside the window; a refused hit is not recorded.
 *
 * Memory stays bounded under a flood of distinct keys:
 * - The map is kept in order of each key's newest recorded hit (a hit re-inserts its key at the
 *   end), so idle keys, whose newest hit has left the window, are always at the front: each call
 *   evicts them from there and stops at the first live key. O(evicted), no periodic full sweep.
 * - Past `maxKeys` live keys, the least recently hit key is dropped even though its window is not
 *   over: that client gets a fresh budget early. Under a flood of more distinct IPs than that in
 *   one window this is the chosen degradation (counted in `droppedLive`), not unbounded memory.
 * All keys of one instance are assumed to share one window length (the demo's hour).
 */
export class WindowLimiter {
  private readonly hits = new Map<string, number[]>();
  /** Live keys dropped because of `maxKeys`, since start. */
  droppedLive = 0;

  constructor(private readonly maxKeys = DEFAULT_MAX_KEYS) {}

  hit(key: string, limit: number, windowMs: number, now: number): CountResult {
    const since = now - windowMs;
    this.evictIdle(since);
    const previous = this.hits.get(key);
    const live = previous ? previous.filter((t) => t > since) : [];
    if (live.length >= limit) {
      if (previous && live.length !== previous.length) this.hits.set(key, live);
      return { allowed: false, used: live.length, limit, resetAt: live[0]! + windowMs };
    }
    live.push(now);
    if (previous) this.hits.delete(key);
    this.hits.set(key, live);
    if (this.hits.size > this.maxKeys) {
      this.hits.delete(this.hits.keys().next().value!);
      this.droppedLive++;
    }
    return { allowed: true, used: live.length, limit, resetAt: live[0]! + windowMs };
  }

  /** Keys currently tracked. */
  get size(): number {
    return this.hits.size;
  }

  private evictIdle(since: number): void {
    for (const [key, times] of this.hits) {
      if (times[times.length - 1]! > since) return;
      this.hits.delete(key);
    }
  }
}
