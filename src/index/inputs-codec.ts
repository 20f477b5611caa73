import { ScoreInputs } from '../scoring/model';

/**
 * facility_inputs.score_inputs, the score model's inputs kept for reports (the programs live in
 * facility.detail): the values alone, as a JSON array in the order of the keys the index lists in
 * index_meta `inputs_keys`. Stored as keyed objects, the keys were most of every row and this table
 * most of a national index. Each
 * index names its own keys, so a reader never assumes the model's current ones.
 */

/** The stored keys, in the schema's order, without `programs`. */
export const STORED_INPUT_KEYS: readonly string[] = Object.keys(ScoreInputs.properties).filter((k) => k !== 'programs');

/** The values in STORED_INPUT_KEYS order (test/index/inputs-codec.test.ts holds the two together). */
export function storedInputsArray(i: ScoreInputs): unknown[] {
  // runs for every row at ingest: a literal array, no per-key lookups
  return [
    i.qtrs_with_nc, i.history, i.compliance_status, i.snc_flag, i.programs_in_snc, i.inspection_count, i.informal_action_count,
    i.formal_action_count, i.penalty_count, i.total_penalties_usd, i.last_penalty_usd, i.date_last_penalty, i.date_last_formal_action,
    i.date_last_informal_action, i.date_last_inspection, i.federal_cases, i.federal_penalties_usd, i.date_last_federal_case,
    i.federal_case_ids, i.facility_active, i.not_reported,
  ];
}

/** The stored text of a facility's inputs. */
export function storedInputsJson(inputs: ScoreInputs): string {
  return JSON.stringify(storedInputsArray(inputs));
}

/** The inputs of a stored text, `programs` left for the caller to set. `keys`: the index's `inputs_keys`. */
export function inputsOfStored(text: string, keys: readonly string[]): ScoreInputs {
  const parsed = JSON.parse(text) as unknown[];
  const out: Record<string, unknown> = {};
  for (let k = 0; k < keys.length; k++) out[keys[k]!] = parsed[k];
  return out as ScoreInputs;
}
