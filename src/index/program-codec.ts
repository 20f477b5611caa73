import { PROGRAMS, type ProgramInputs, type ProgramsInputs, type ScoreInputs } from '../scoring/model';

/**
 * Compact storage of the per-program records (format 7: facility_detail; formats 5-6: table facility_programs): one JSON array of four
 * entries (caa, cwa, rcra, sdwa), each null or the nine fields in ProgramInputs order. Keyed JSON
 * doubled the size of the inputs (374 -> 828 bytes a row) and spilled rows to overflow pages: the
 * index file grew 2.3x on a 100k-row national slice.
 */
const FIELDS = ['status', 'significant', 'qtrs_with_nc', 'formal_actions', 'informal_actions', 'penalties_usd', 'last_penalty_usd', 'last_penalty_date', 'last_formal_action_date'] as const;

/** The stored array (four entries, each null or the nine fields), or null when the facility is in no program the source reports. */
export function programsArray(p: ProgramsInputs): (unknown[] | null)[] | null {
  if (p.caa === null && p.cwa === null && p.rcra === null && p.sdwa === null) return null;
  // runs for every row at ingest: literal arrays, no per-field lookups
  const row = (r: ProgramInputs | null) =>
    r === null ? null : [r.status, r.significant, r.qtrs_with_nc, r.formal_actions, r.informal_actions, r.penalties_usd, r.last_penalty_usd, r.last_penalty_date, r.last_formal_action_date];
  return [row(p.caa), row(p.cwa), row(p.rcra), row(p.sdwa)];
}

/** The stored text, or null when the facility is in no program the source reports (no row is written). */
export function encodePrograms(p: ProgramsInputs): string | null {
  const rows = programsArray(p);
  return rows === null ? null : JSON.stringify(rows);
}

export function decodePrograms(text: string | null): ProgramsInputs {
  return programsOfArray(text === null ? null : (JSON.parse(text) as (unknown[] | null)[]));
}

/** The records of a stored array (null or 0: in no program). */
export function programsOfArray(rows: readonly (unknown[] | null)[] | null | 0): ProgramsInputs {
  const out: ProgramsInputs = { caa: null, cwa: null, rcra: null, sdwa: null };
  if (!rows) return out;
  PROGRAMS.forEach((k, i) => {
    const r = rows[i];
    if (r) out[k] = Object.fromEntries(FIELDS.map((f, j) => [f, r[j] ?? null])) as ProgramInputs;
  });
  return out;
}

const ALL_NULL = '{"caa":null,"cwa":null,"rcra":null,"sdwa":null}';

// A national file holds a few dozen distinct status texts: each is escaped once (bounded, so junk cannot grow it).
const STATUS_JSON = new Map<string, string>();

/** One stored value as JSON, without a JSON.stringify call for the common kinds (this runs 36 times a lookup). */
function valueJson(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'number') return Number.isFinite(v) ? `${v}` : 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v !== 'string') return JSON.stringify(v);
  let json = STATUS_JSON.get(v);
  if (json === undefined) {
    json = JSON.stringify(v);
    if (STATUS_JSON.size < 1000) STATUS_JSON.set(v, json);
  }
  return json;
}

function programJson(r: unknown[] | null | undefined): string {
  if (!r) return 'null';
  return (
    `{"status":${valueJson(r[0])},"significant":${valueJson(r[1])},"qtrs_with_nc":${valueJson(r[2])},"formal_actions":${valueJson(r[3])}` +
    `,"informal_actions":${valueJson(r[4])},"penalties_usd":${valueJson(r[5])},"last_penalty_usd":${valueJson(r[6])}` +
    `,"last_penalty_date":${valueJson(r[7])},"last_formal_action_date":${valueJson(r[8])}}`
  );
}

/**
 * The API's `programs` as JSON text straight from the stored array: the same text as JSON.stringify
 * of programsOfArray (keys in ProgramInputs order), without building the objects per lookup.
 */
export function programsJson(rows: readonly (unknown[] | null)[] | null | 0): string {
  if (!rows) return ALL_NULL;
  return `{"caa":${programJson(rows[0])},"cwa":${programJson(rows[1])},"rcra":${programJson(rows[2])},"sdwa":${programJson(rows[3])}}`;
}

/** facility_inputs.score_inputs: the inputs' JSON without `programs` (format 7 keeps them in facility_detail). */
export function storedInputsJson(inputs: ScoreInputs): string {
  const programs = inputs.programs;
  // JSON leaves out undefined properties: cheaper than copying the object without the key (~3x at ingest)
  (inputs as { programs?: ProgramsInputs }).programs = undefined;
  const json = JSON.stringify(inputs);
  inputs.programs = programs;
  return json;
}
