import type { CountResult } from './model';

/**
 * In-process rolling-window limiter: per key, the times of its last `limit` hits.
 * A hit is allowed when fewer than `limit` fall inside the window; memory is bounded by sweeping
 * keys whose newest hit is older than the window.
 */
export class WindowLimiter {
  private readonly hits = new Map<string, number[]>();
  private lastSweep = 0;

  hit(key: string, limit: number, windowMs: number, now: number): CountResult {
    this.sweep(windowMs, now);
    const times = (this.hits.get(key) ?? []).filter((t) => t > now - windowMs);
    if (times.length >= limit) {
      this.hits.set(key, times);
      return { allowed: false, used: times.length, limit, resetAt: times[0]! + windowMs };
    }
    times.push(now);
    this.hits.set(key, times);
    return { allowed: true, used: times.length, limit, resetAt: times[0]! + windowMs };
  }

  get size(): number {
    return this.hits.size;
  }

  private sweep(windowMs: number, now: number): void {
    if (now - this.lastSweep < Math.min(windowMs, 60_000)) return;
    this.lastSweep = now;
    for (const [key, times] of this.hits) if (times[times.length - 1]! <= now - windowMs) this.hits.delete(key);
  }
}
