import { describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { inputsOfStored, STORED_INPUT_KEYS, storedInputsArray, storedInputsJson } from '../../src/index/inputs-codec';
import { ScoreInputs } from '../../src/scoring/model';
import { scoreAndExplain, scoreHash, scoreHashOfStored } from '../../src/scoring/score';
import { CLEAN_INPUTS } from '../helpers';
import { scenarioArb } from '../scoring/arbitraries';

/** The inputs as a keyed object, in the schema's order (without programs). */
const keyedJson = (inputs: ScoreInputs) => JSON.stringify({ ...inputs, programs: undefined });

describe('the stored score inputs (values in the order of index_meta inputs_keys)', () => {
  it("the literal array's order is the schema's keys without programs", () => {
    expect(STORED_INPUT_KEYS).toEqual(Object.keys(ScoreInputs.properties).filter((k) => k !== 'programs'));
    // each position holds the value of its key: every field set to a value of its own
    const marked = Object.fromEntries(STORED_INPUT_KEYS.map((k) => [k, `value of ${k}`])) as unknown as ScoreInputs;
    expect(storedInputsArray(marked)).toEqual(STORED_INPUT_KEYS.map((k) => `value of ${k}`));
  });

  it('read back with the keys, any inputs are what the keyed form held, key order included', () => {
    fc.assert(
      fc.property(scenarioArb, ({ inputs }) => {
        const back = inputsOfStored(storedInputsJson(inputs), STORED_INPUT_KEYS);
        expect(JSON.stringify(back)).toBe(keyedJson(inputs));
      }),
    );
  });

  it('is shorter than the keyed form by the keys', () => {
    fc.assert(fc.property(scenarioArb, ({ inputs }) => storedInputsJson(inputs).length < keyedJson(inputs).length - 250));
  });

  it('an index that lists other keys (a later model with one more input) reads its own values by its own keys', () => {
    const keys = [...STORED_INPUT_KEYS.slice(0, 3), 'new_input', ...STORED_INPUT_KEYS.slice(3)];
    const values = keys.map((k, i) => (k === 'new_input' ? 'added later' : i));
    const back = inputsOfStored(JSON.stringify(values), keys) as unknown as Record<string, unknown>;
    expect(back.new_input).toBe('added later');
    expect(back.compliance_status).toBe(2);
    expect(back.snc_flag).toBe(4);
  });

  it("the score hash made from the stored text (ingest's way) is scoreHash, for any inputs", () => {
    fc.assert(
      fc.property(scenarioArb, ({ inputs, asOf }) => {
        const stored = storedInputsJson(inputs);
        expect(scoreHashOfStored(inputs, asOf, stored)).toBe(scoreHash(inputs, asOf));
        expect(scoreAndExplain(inputs, asOf, stored).score.score_hash).toBe(scoreHash(inputs, asOf));
      }),
      { numRuns: 500 },
    );
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, undefined])('an input of %p, which the stored text writes as null, still hashes as scoreHash does', (v) => {
    const inputs = { ...CLEAN_INPUTS, total_penalties_usd: v, not_reported: ['penalty_count'] } as ScoreInputs;
    expect(scoreHashOfStored(inputs, '2025-06-30', storedInputsJson(inputs))).toBe(scoreHash(inputs, '2025-06-30'));
  });
});
