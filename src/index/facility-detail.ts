import type { ProgramsInputs, ScoreExplanation } from '../scoring/model';
import { ReasonTemplates, type TemplateRow } from './explanation-codec';
import { ProgramRecords, programsArray, programsOfArray, type RecordRow, type SharedRecords, type StoredProgram } from './program-codec';

/**
 * facility.detail (index format 7): one JSON array, `[programs, ...explanation]`: the programs as
 * program-codec.ts stores them (0 when the facility is in none; since format 10 a shareable record
 * is the id of a program_record row), then for each explained component its sentence's template id
 * and values (explanation-codec.ts). A lookup parses it once per distinct text (stored-lookup.ts)
 * and builds the API's `programs` and `explanation` from it.
 */
export type StoredDetail = [programs: StoredProgram[] | 0, ...explanation: (string | number)[]];

/** Where the explanation starts in a StoredDetail. */
export const EXPLANATION_AT = 1;

/** `records`: share records through program_record (format 10); without it they are stored in the row, as formats 7-9 did. */
export function encodeDetail(programs: ProgramsInputs, why: ScoreExplanation, templates: ReasonTemplates, records?: ProgramRecords): string {
  const out: (string | number | StoredProgram[])[] = [programsArray(programs, records) ?? 0];
  templates.encodeExplanation(why, out as (string | number)[]);
  return JSON.stringify(out);
}

/** The tables' rows a build's details refer to, first used since the last drain. */
export type DetailDictionary = { templates: TemplateRow[]; records: RecordRow[] };

/** One build's detail encoding: sentence templates and shared program records (ids are per index file). */
export class DetailEncoder {
  private readonly templates = new ReasonTemplates();
  private readonly records = new ProgramRecords();

  encode(programs: ProgramsInputs, why: ScoreExplanation): string {
    return encodeDetail(programs, why, this.templates, this.records);
  }

  /** Templates and records first used since the last call: the writer stores them with the rows that use them. */
  drain(): DetailDictionary {
    return { templates: this.templates.drain(), records: this.records.drain() };
  }
}

export function parseDetail(text: string): StoredDetail {
  return JSON.parse(text) as StoredDetail;
}

/** The programs of a stored detail, as objects (reports, FacilityIndex.get). */
export function programsOfDetail(text: string, shared: SharedRecords): ProgramsInputs {
  return programsOfArray(parseDetail(text)[0], shared);
}
