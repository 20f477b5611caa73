import { type ProgramInputs, type ProgramsInputs, type ScoreInputs } from '../scoring/model';

/**
 * Compact storage of the per-program records (format 7: facility.detail; formats 5-6: table facility_programs): one JSON array of four
 * entries (caa, cwa, rcra, sdwa), each null or the nine fields in ProgramInputs order. Keyed JSON
 * doubled the size of the inputs (374 -> 828 bytes a row) and spilled rows to overflow pages: the
 * index file grew 2.3x on a 100k-row national slice.
 */

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
  if (!rows) return { caa: null, cwa: null, rcra: null, sdwa: null };
  return { caa: programOf(rows[0]), cwa: programOf(rows[1]), rcra: programOf(rows[2]), sdwa: programOf(rows[3]) };
}

// runs four times a Starter+ lookup: a literal object in ProgramInputs order, no per-field lookups
function programOf(r: unknown[] | null | undefined): ProgramInputs | null {
  if (!r) return null;
  return {
    status: (r[0] ?? null) as ProgramInputs['status'],
    significant: (r[1] ?? null) as ProgramInputs['significant'],
    qtrs_with_nc: (r[2] ?? null) as ProgramInputs['qtrs_with_nc'],
    formal_actions: (r[3] ?? null) as ProgramInputs['formal_actions'],
    informal_actions: (r[4] ?? null) as ProgramInputs['informal_actions'],
    penalties_usd: (r[5] ?? null) as ProgramInputs['penalties_usd'],
    last_penalty_usd: (r[6] ?? null) as ProgramInputs['last_penalty_usd'],
    last_penalty_date: (r[7] ?? null) as ProgramInputs['last_penalty_date'],
    last_formal_action_date: (r[8] ?? null) as ProgramInputs['last_formal_action_date'],
  };
}

/** facility_inputs.score_inputs: the inputs' JSON without `programs` (format 7 keeps them in facility.detail). */
export function storedInputsJson(inputs: ScoreInputs): string {
  const programs = inputs.programs;
  // JSON leaves out undefined properties: cheaper than copying the object without the key (~3x at ingest)
  (inputs as { programs?: ProgramsInputs }).programs = undefined;
  const json = JSON.stringify(inputs);
  inputs.programs = programs;
  return json;
}
