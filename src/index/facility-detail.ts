import type { ProgramsInputs, ScoreExplanation } from '../scoring/model';
import type { ReasonTemplates } from './explanation-codec';
import { programsArray, programsOfArray } from './program-codec';

/**
 * facility.detail (index format 7): one JSON array, `[programs, ...explanation]`: the programs as
 * program-codec.ts stores them (0 when the facility is in none), then for each explained component
 * its sentence's template id and values (explanation-codec.ts). A lookup parses it once and builds
 * the API's `programs` and `explanation` from it.
 */
export type StoredDetail = [programs: (unknown[] | null)[] | 0, ...explanation: (string | number)[]];

/** Where the explanation starts in a StoredDetail. */
export const EXPLANATION_AT = 1;

export function encodeDetail(programs: ProgramsInputs, why: ScoreExplanation, templates: ReasonTemplates): string {
  const out: (string | number | (unknown[] | null)[])[] = [programsArray(programs) ?? 0];
  templates.encodeExplanation(why, out as (string | number)[]);
  return JSON.stringify(out);
}

export function parseDetail(text: string): StoredDetail {
  return JSON.parse(text) as StoredDetail;
}

/** The programs of a stored detail, as objects (reports, FacilityIndex.get). */
export function programsOfDetail(text: string): ProgramsInputs {
  return programsOfArray(parseDetail(text)[0]);
}
