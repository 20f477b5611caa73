import { describe, expect, it } from 'bun:test';
import { WindowLimiter } from '../../src/state/window-limiter';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 15, 12);

describe('WindowLimiter', () => {
  it('allows `limit` hits per rolling window and says when the oldest leaves it', () => {
    const l = new WindowLimiter();
    for (let i = 0; i < 5; i++) expect(l.hit('a', 5, HOUR, T0 + i * 1000).allowed).toBe(true);
    expect(l.hit('a', 5, HOUR, T0 + 10_000)).toEqual({ allowed: false, used: 5, limit: 5, resetAt: T0 + HOUR });
    expect(l.hit('a', 5, HOUR, T0 + HOUR - 1).allowed).toBe(false);
    // At resetAt exactly the oldest hit is out (Retry-After = resetAt - now is honest).
    expect(l.hit('a', 5, HOUR, T0 + HOUR)).toEqual({ allowed: true, used: 5, limit: 5, resetAt: T0 + 1000 + HOUR });
  });

  it('evicts keys whose newest hit has left the window, without a full sweep', () => {
    const l = new WindowLimiter();
    for (let i = 0; i < 10_000; i++) l.hit(`ip-${i}`, 5, HOUR, T0 + i);
    expect(l.size).toBe(10_000);
    l.hit('late', 5, HOUR, T0 + HOUR + 5_000);
    // Keys last hit at T0..T0+5000 are idle by then; the rest are still inside the window.
    expect(l.size).toBe(10_000 - 5_001 + 1);
    l.hit('later', 5, HOUR, T0 + 2 * HOUR + 10_000);
    expect(l.size).toBe(1);
  });

  it('a key hit again moves behind idle keys, so it is not evicted with them', () => {
    const l = new WindowLimiter();
    l.hit('old', 5, HOUR, T0);
    l.hit('busy', 5, HOUR, T0 + 1);
    l.hit('old', 5, HOUR, T0 + HOUR - 1);
    l.hit('x', 5, HOUR, T0 + HOUR + 2);
    expect(l.size).toBe(2);
    expect(l.hit('old', 2, HOUR, T0 + HOUR + 3).used).toBe(2);
  });

  it('never holds more than maxKeys under a flood of distinct keys, dropping the least recently hit', () => {
    const l = new WindowLimiter(1000);
    for (let i = 0; i < 50_000; i++) l.hit(`flood-${i}`, 5, HOUR, T0 + i);
    expect(l.size).toBe(1000);
    expect(l.droppedLive).toBe(49_000);
    // The newest keys are the ones kept.
    expect(l.hit('flood-49999', 1, HOUR, T0 + 50_000).allowed).toBe(false);
    expect(l.hit('flood-0', 1, HOUR, T0 + 50_000).allowed).toBe(true);
  });
});
