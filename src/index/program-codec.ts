import { PROGRAMS, type ProgramInputs, type ProgramsInputs, type ScoreInputs } from '../scoring/model';

/**
 * Compact storage of the per-program records (table facility_programs): one JSON array of four
 * entries (caa, cwa, rcra, sdwa), each null or the nine fields in ProgramInputs order. Keyed JSON
 * doubled the size of the inputs (374 -> 828 bytes a row) and spilled rows to overflow pages: the
 * index file grew 2.3x on a 100k-row national slice.
 */
const FIELDS = ['status', 'significant', 'qtrs_with_nc', 'formal_actions', 'informal_actions', 'penalties_usd', 'last_penalty_usd', 'last_penalty_date', 'last_formal_action_date'] as const;

/** The stored text, or null when the facility is in no program the source reports (no row is written). */
export function encodePrograms(p: ProgramsInputs): string | null {
  if (p.caa === null && p.cwa === null && p.rcra === null && p.sdwa === null) return null;
  // runs for every row at ingest: literal arrays, no per-field lookups
  const row = (r: ProgramInputs | null) =>
    r === null ? null : [r.status, r.significant, r.qtrs_with_nc, r.formal_actions, r.informal_actions, r.penalties_usd, r.last_penalty_usd, r.last_penalty_date, r.last_formal_action_date];
  return JSON.stringify([row(p.caa), row(p.cwa), row(p.rcra), row(p.sdwa)]);
}

export function decodePrograms(text: string | null): ProgramsInputs {
  const out: ProgramsInputs = { caa: null, cwa: null, rcra: null, sdwa: null };
  if (text === null) return out;
  const rows = JSON.parse(text) as (unknown[] | null)[];
  PROGRAMS.forEach((k, i) => {
    const r = rows[i];
    if (r) out[k] = Object.fromEntries(FIELDS.map((f, j) => [f, r[j] ?? null])) as ProgramInputs;
  });
  return out;
}

/** The inputs as stored: facility_inputs JSON without `programs`, and the programs text ('' when in none). */
export function storedInputs(inputs: ScoreInputs): [string, string] {
  const programs = inputs.programs;
  // JSON leaves out undefined properties: cheaper than copying the object without the key (~3x at ingest)
  (inputs as { programs?: ProgramsInputs }).programs = undefined;
  const json = JSON.stringify(inputs);
  inputs.programs = programs;
  return [json, encodePrograms(programs) ?? ''];
}
