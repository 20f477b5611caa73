import { describe, expect, it } from 'bun:test';
import { lineLog } from '../../src/ops/log-sink';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('serve log lines (batched per event-loop turn)', () => {
  it('lines logged in one turn are written together in the next, each one JSON object with a time', async () => {
    const writes: string[] = [];
    const { log } = lineLog((t) => void writes.push(t));
    log({ level: 'info', msg: 'a' });
    log({ level: 'info', msg: 'b', n: 2 });
    expect(writes).toEqual([]);
    await nextTurn();
    expect(writes).toHaveLength(1);
    const lines = writes[0]!.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(lines).toMatchObject([{ msg: 'a' }, { msg: 'b', n: 2 }]);
    for (const l of lines) expect(new Date(l.time).toISOString()).toBe(l.time);
  });

  it('a turn that logs past 64 KiB writes at once instead of holding it', () => {
    const writes: string[] = [];
    const { log } = lineLog((t) => void writes.push(t));
    for (let i = 0; i < 300 && writes.length === 0; i++) log({ msg: 'x'.repeat(300), i });
    expect(writes).toHaveLength(1);
    expect(writes[0]!.length).toBeGreaterThanOrEqual(65_536);
  });

  it('flush writes what is pending now (serve calls it before exiting), and nothing twice', async () => {
    const writes: string[] = [];
    const { log, flush } = lineLog((t) => void writes.push(t));
    log({ msg: 'stopped', clean: true });
    flush();
    expect(writes.map((w) => JSON.parse(w).msg)).toEqual(['stopped']);
    await nextTurn();
    flush();
    expect(writes).toHaveLength(1);
  });
});
