import { expect, it } from 'bun:test';
import fc from 'fast-check';
import { json, makeWorld } from '../helpers';
import { SEARCH_ROWS } from './fixtures';

const world = makeWorld({ rows: SEARCH_ROWS });
const { key } = await world.keyFor('enterprise');

// Pieces of FTS5 query syntax, mixed into arbitrary text so the property exercises them often.
const FTS_BITS = ['"', "'", '*', '^', ':', '(', ')', '{', '}', '+', '-', 'NEAR', 'NEAR(', 'AND', 'OR', 'NOT', '""', 'name:', ',', '\\', '\u0000', 'é', '\u200b'];
const anyQuery = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 260 }),
  fc.array(fc.oneof(fc.constantFrom(...FTS_BITS), fc.string({ maxLength: 6 }), fc.constantFrom(' ', '  ', 'acme', 'plat')), { maxLength: 30 }).map((a) => a.join('')),
);

it('any q, in any sort, is answered 200 or 422 VALIDATION_ERROR in the envelope, never a 5xx', async () => {
  await fc.assert(
    fc.asyncProperty(anyQuery, fc.constantFrom('relevance', 'score'), async (q, sort) => {
      const res = await world.call(`/api/v1/search?q=${encodeURIComponent(q)}&sort=${sort}`, { key });
      const body = await json(res);
      if (res.status === 200) expect(Array.isArray(body.data.facilities)).toBe(true);
      else expect([res.status, body.error.code]).toEqual([422, 'VALIDATION_ERROR']);
    }),
    { numRuns: 100 },
  );
});

it('a prefix of a facility\'s word wrapped in any ASCII punctuation (quotes, operators, brackets) still finds that facility', async () => {
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...SEARCH_ROWS), fc.array(fc.constantFrom(...FTS_BITS.filter((b) => /^[\x00-\x2F\x3A-\x40\x5B-\x60\x7B-\x7F]+$/.test(b))), { minLength: 1, maxLength: 4 }), async (row, junk) => {
      const word = row.fac_name.split(/[^A-Z0-9]+/).find((w) => w.length >= 3)!;
      const q = `${junk.join('')}${word.slice(0, 3).toLowerCase()}${junk.join('')}`;
      const body = await json(await world.call(`/api/v1/search?q=${encodeURIComponent(q)}&limit=100`, { key }));
      expect(body.data.facilities.map((f: { registry_id: string }) => f.registry_id)).toContain(row.registry_id);
    }),
    { numRuns: 40 },
  );
});
