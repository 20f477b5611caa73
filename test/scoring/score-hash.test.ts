import { describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { ScoreInputs } from '../../src/scoring/model';
import { SCORE_VERSION, hashScoreInputs, scoreFacility, scoreHash } from '../../src/scoring/score';
import { CLEAN_INPUTS } from '../helpers';
import { daysBefore, scenarioArb } from './arbitraries';

/** A value of the same type that differs from `v`. */
function changed(v: unknown): unknown {
  if (typeof v === 'number') return v + 1;
  if (typeof v === 'boolean') return !v;
  if (typeof v === 'string') return v === '' ? 'V' : /^\d{4}-\d{2}-\d{2}$/.test(v) ? daysBefore(v, 1) : `${v.slice(1)}X`;
  return '2020-01-01'; // null date
}

const FIELDS = Object.keys(ScoreInputs.properties) as (keyof ScoreInputs)[];

describe('score_hash', () => {
  it('is the version-and-as-of hash scoreFacility stores, 32 hex chars', () => {
    const r = scoreFacility(CLEAN_INPUTS, '2025-06-30');
    expect(r.score_hash).toBe(scoreHash(CLEAN_INPUTS, '2025-06-30'));
    expect(r.score_hash).toMatch(/^[0-9a-f]{32}$/);
    expect(SCORE_VERSION).toBe('fcs-4.0');
  });

  it.each(FIELDS)('changes when %s changes', (field) => {
    fc.assert(
      fc.property(scenarioArb, ({ inputs, asOf }) => {
        const other = { ...inputs, [field]: changed(inputs[field]) } as ScoreInputs;
        return scoreHash(other, asOf) !== scoreHash(inputs, asOf);
      }),
      { numRuns: 50 },
    );
  });

  it('changes when the as-of date changes (recency depends on it)', () => {
    fc.assert(
      fc.property(scenarioArb, fc.integer({ min: 1, max: 5000 }), ({ inputs, asOf }, d) => scoreHash(inputs, asOf) !== scoreHash(inputs, daysBefore(asOf, d))),
      { numRuns: 100 },
    );
  });

  it('changes when the score method version changes', () => {
    fc.assert(
      fc.property(scenarioArb, ({ inputs, asOf }) => hashScoreInputs('fcs-1.1', inputs, asOf) !== hashScoreInputs(SCORE_VERSION, inputs, asOf)),
      { numRuns: 100 },
    );
    expect(hashScoreInputs(SCORE_VERSION, CLEAN_INPUTS, '2025-06-30')).toBe(scoreHash(CLEAN_INPUTS, '2025-06-30'));
  });

  it('tells NaN from Infinity from null, which JSON alone would not', () => {
    const hashes = [Number.NaN, Number.POSITIVE_INFINITY, 0].map((v) => scoreHash({ ...CLEAN_INPUTS, total_penalties_usd: v }, '2025-06-30'));
    expect(new Set(hashes).size).toBe(3);
  });

  it('ignores key order and properties outside the schema', () => {
    const reversed = Object.fromEntries(Object.entries(CLEAN_INPUTS).reverse()) as ScoreInputs;
    const extra = { ...CLEAN_INPUTS, registry_id: '990000000001', note: 'not an input' } as ScoreInputs;
    expect(scoreHash(reversed, '2025-06-30')).toBe(scoreHash(CLEAN_INPUTS, '2025-06-30'));
    expect(scoreHash(extra, '2025-06-30')).toBe(scoreHash(CLEAN_INPUTS, '2025-06-30'));
  });
});
