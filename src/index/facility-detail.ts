import { activeEnforcementBasis } from '../scoring/active-enforcement';
import { completenessKey, dataCompleteness, type SourceFormat } from '../scoring/completeness';
import type { ScoreFacts } from '../scoring/facts';
import type { ProgramsInputs, ScoreExplanation } from '../scoring/model';
import { ReasonTemplates, type TemplateRow } from './explanation-codec';
import { ProgramRecords, programsArray, programsOfArray, type RecordRow, type SharedRecords, type StoredProgram } from './program-codec';

/**
 * facility.detail: one JSON array, `[programs, ...explanation]`: the programs as program-codec.ts
 * stores them (0 when the facility is in none; a shareable record is the id of a program_record row), then for each explained component its sentence's template id
 * and values (explanation-codec.ts). A lookup parses it once per distinct text (stored-lookup.ts)
 * and builds the API's `programs` and `explanation` from it.
 */
export type StoredDetail = [programs: StoredProgram[] | 0, ...explanation: (string | number)[]];

/** Where the explanation starts in a StoredDetail. */
export const EXPLANATION_AT = 1;

type DetailArray = (string | number | StoredProgram[])[];

function detailArray(programs: ProgramsInputs, why: ScoreExplanation, templates: ReasonTemplates, records?: ProgramRecords): DetailArray {
  const out: DetailArray = [programsArray(programs, records) ?? 0];
  templates.encodeExplanation(why, out as (string | number)[]);
  return out;
}

/** `records`: share records through program_record; without it every record is stored in the row. */
export function encodeDetail(programs: ProgramsInputs, why: ScoreExplanation, templates: ReasonTemplates, records?: ProgramRecords): string {
  return JSON.stringify(detailArray(programs, why, templates, records));
}

/**
 * Whether a detail is one of few shapes: every program record shared (an id) or absent, and every value
 * of its sentences a plain number (no date, no amount with separators). Such details repeat across
 * many facilities ("No Violation Identified" under the same programs), so each is stored once.
 */
function shareable(d: DetailArray): boolean {
  const programs = d[0] as StoredProgram[] | 0;
  if (programs !== 0) for (const p of programs) if (p !== null && typeof p !== 'number') return false;
  for (let i = EXPLANATION_AT; i < d.length; i++) if (typeof d[i] !== 'number') return false;
  return true;
}

/** Shared details at most per index: beyond it, details are stored in the row. */
const MAX_SHARED_DETAILS = 65_536;

/** The tables' rows a build's details (and data completeness) refer to, first used since the last drain. */
export type DetailDictionary = { templates: TemplateRow[]; records: RecordRow[]; details: RecordRow[]; completeness: RecordRow[] };

/**
 * One build's detail encoding (ids are per index file): sentence templates, shared program records
 * and shared details. A shareable detail is stored once in table shared_detail and the
 * facility's row holds its id, an integer (ids from 1), so most rows carry a few bytes instead of text and a lookup's
 * decoded detail is found by a number (stored-lookup.ts). Other details are stored in the row as text.
 */
export class DetailEncoder {
  private readonly templates = new ReasonTemplates();
  private readonly records = new ProgramRecords();
  private readonly ids = new Map<string, number>();
  private fresh: RecordRow[] = [];
  private readonly kinds = new Map<string, number>();
  private readonly kindByKey = new Map<string, number>();
  private freshKinds: RecordRow[] = [];

  constructor(private readonly limit = MAX_SHARED_DETAILS) {}

  encode(programs: ProgramsInputs, why: ScoreExplanation): string | number {
    const d = detailArray(programs, why, this.templates, this.records);
    const text = JSON.stringify(d);
    if (!shareable(d)) return text;
    let id = this.ids.get(text);
    if (id === undefined) {
      if (this.ids.size >= this.limit) return text;
      id = this.ids.size + 1;
      this.ids.set(text, id);
      this.fresh.push([id, text]);
    }
    return id;
  }

  /**
   * The id of a data_completeness (src/scoring/completeness.ts), with the active_enforcement basis, in table completeness_kind. Few
   * distinct values exist (a handful of flags and a count of unknown quarters), so each is stored
   * once, the facility row holds its id, and a server loads them all at open: a lookup answers its
   * completeness without reading or deriving anything.
   */
  completeness(facts: ScoreFacts, format: SourceFormat): number {
    // keyed by the few facts it reads: building and writing the value for every row was a visible per-row cost
    // the active_enforcement basis rides along (three values): stored beside the score without a column of its own
    const basis = activeEnforcementBasis(facts);
    const key = `${completenessKey(facts, format)}|${basis ?? ''}`;
    let id = this.kindByKey.get(key);
    if (id === undefined) {
      const text = JSON.stringify({ ...dataCompleteness(facts, format), active_enforcement_basis: basis });
      id = this.kinds.get(text);
      if (id === undefined) {
        id = this.kinds.size + 1;
        this.kinds.set(text, id);
        this.freshKinds.push([id, text]);
      }
      this.kindByKey.set(key, id);
    }
    return id;
  }

  /** Templates, records, details and completeness values first used since the last call: the writer stores them with the rows that use them. */
  drain(): DetailDictionary {
    const details = this.fresh;
    const completeness = this.freshKinds;
    this.fresh = [];
    this.freshKinds = [];
    return { templates: this.templates.drain(), records: this.records.drain(), details, completeness };
  }
}

export function parseDetail(text: string): StoredDetail {
  return JSON.parse(text) as StoredDetail;
}

/** The programs of a stored detail, as objects (reports, FacilityIndex.get). */
export function programsOfDetail(text: string, shared: SharedRecords): ProgramsInputs {
  return programsOfArray(parseDetail(text)[0], shared);
}
