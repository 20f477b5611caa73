import { describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { HotEntries } from '../../src/reports/hot-entries';

const TTL = 1000;
const bytes = (n: number, fill = 1) => new Uint8Array(n).fill(fill);

describe('the report cache memory tier', () => {
  it('serves an entry until its time to live, then drops it and frees its bytes', () => {
    const hot = new HotEntries(100);
    hot.set('a', 0, bytes(10));
    expect(hot.get('a', TTL - 1, TTL)).toEqual(bytes(10));
    expect(hot.get('a', TTL, TTL)).toBeNull();
    expect([hot.size, hot.bytes, hot.hits]).toEqual([0, 0, 1]);
  });

  it('an entry dated after now (a clock set back) is not served', () => {
    const hot = new HotEntries(100);
    hot.set('a', 500, bytes(10));
    expect(hot.get('a', 499, TTL)).toBeNull();
  });

  it('past its budget, the least recently used entries go first; a hit counts as a use', () => {
    const hot = new HotEntries(30);
    hot.set('a', 0, bytes(10, 1));
    hot.set('b', 0, bytes(10, 2));
    hot.set('c', 0, bytes(10, 3));
    expect(hot.get('a', 1, TTL)).not.toBeNull(); // b is now the least recently used
    hot.set('d', 0, bytes(10, 4));
    expect(['a', 'b', 'c', 'd'].map((k) => hot.get(k, 1, TTL)?.[0] ?? null)).toEqual([1, null, 3, 4]);
    expect(hot.bytes).toBe(30);
  });

  it('a PDF larger than the whole budget is not held, and evicts nothing', () => {
    const hot = new HotEntries(30);
    hot.set('a', 0, bytes(10));
    hot.set('big', 0, bytes(31));
    expect([hot.get('big', 1, TTL), hot.get('a', 1, TTL)?.length]).toEqual([null, 10]);
  });

  it('a view of a larger buffer is held as its own copy, so the budget counts what is kept', () => {
    const hot = new HotEntries(100);
    const file = bytes(1000);
    hot.set('a', 0, file.subarray(900, 950));
    expect(hot.bytes).toBe(50);
    expect(hot.get('a', 1, TTL)!.buffer.byteLength).toBe(50);
  });

  it('storing a key again replaces its entry; drop forgets it', () => {
    const hot = new HotEntries(100);
    hot.set('a', 0, bytes(10, 1));
    hot.set('a', 5, bytes(20, 2));
    expect([hot.size, hot.bytes, hot.get('a', 6, TTL)![0]]).toEqual([1, 20, 2]);
    hot.drop('a');
    expect([hot.size, hot.bytes, hot.get('a', 6, TTL)]).toEqual([0, 0, null]);
  });

  it('property: the bytes held never exceed the budget and equal the sum of what is held, whatever the sequence', () => {
    const op = fc.oneof(
      fc.record({ set: fc.integer({ min: 0, max: 7 }), size: fc.integer({ min: 0, max: 60 }), at: fc.integer({ min: 0, max: 3000 }) }),
      fc.record({ get: fc.integer({ min: 0, max: 7 }), at: fc.integer({ min: 0, max: 3000 }) }),
      fc.record({ drop: fc.integer({ min: 0, max: 7 }) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const hot = new HotEntries(100);
        const model = new Map<string, number>(); // key -> size, for what a get may return
        for (const o of ops) {
          if ('set' in o) {
            hot.set(`k${o.set}`, o.at, bytes(o.size));
            model.set(`k${o.set}`, o.size);
          } else if ('get' in o) {
            const got = hot.get(`k${o.get}`, o.at, TTL);
            if (got !== null) expect(got.length).toBe(model.get(`k${o.get}`)!);
          } else hot.drop(`k${o.drop}`);
          expect(hot.bytes).toBeLessThanOrEqual(100);
        }
        let sum = 0;
        for (let k = 0; k < 8; k++) sum += hot.get(`k${k}`, 3000, Number.POSITIVE_INFINITY)?.length ?? 0;
        // every held entry was counted once (expired ones too: an infinite TTL serves them all)
        expect(sum).toBe(hot.bytes);
      }),
    );
  });
});
