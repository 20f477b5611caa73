import { type ProgramInputs, type ProgramsInputs } from '../scoring/model';

/**
 * Compact storage of the per-program records (in facility.detail): one JSON array of four
 * entries (caa, cwa, rcra, sdwa), each null or the eleven fields in ProgramInputs order. Keyed JSON
 * was mostly key names and spilled rows to overflow pages, which made the index file far larger.
 */

/**
 * One program's entry in a stored array: null (not in the program), its eleven fields, or (index
 * facility.detail) the id of a shared record in table program_record.
 */
export type StoredProgram = unknown[] | number | null;
/** A row of program_record: id and the record's nine fields as JSON. */
export type RecordRow = [id: number, record: string];

/** Shared records at most per index: beyond it, records are stored in the row (the rule still holds, only the saving stops). */
const MAX_SHARED_RECORDS = 65_536;

/**
 * Assigns program_record ids during a build. A record with no date and no money in it
 * (most of them: "No Violation Identified" with zero counts) is one of few shapes, so it is stored once
 * and each facility keeps its id: facility.detail shrank to a fraction of its size, which
 * keeps a national `facility` row (WITHOUT ROWID: whole rows in interior cells) at about its old
 * width. Records with a date or an amount stay in the row: they are nearly all distinct.
 * Ids are per index file; one build owns one (the producer, or the writer for add()).
 */
export class ProgramRecords {
  private readonly ids = new Map<string, number>();
  private fresh: RecordRow[] = [];

  constructor(private readonly limit = MAX_SHARED_RECORDS) {}

  entry(r: ProgramInputs | null): StoredProgram {
    if (r === null) return null;
    const fields = fieldsOf(r);
    if (r.last_penalty_date !== null || r.last_formal_action_date !== null || r.penalties_usd || r.last_penalty_usd) return fields;
    const key = JSON.stringify(fields);
    let id = this.ids.get(key);
    if (id === undefined) {
      if (this.ids.size >= this.limit) return fields;
      id = this.ids.size;
      this.ids.set(key, id);
      this.fresh.push([id, key]);
    }
    return id;
  }

  /** Records first used since the last call, to be written with the rows that use them. */
  drain(): RecordRow[] {
    const out = this.fresh;
    this.fresh = [];
    return out;
  }
}

/** The shared records of an index, by id (read once at open). */
export type SharedRecords = readonly (readonly unknown[])[];

export function sharedRecordsOf(rows: Iterable<{ id: number; record: string }>): SharedRecords {
  const out: unknown[][] = [];
  for (const r of rows) out[r.id] = JSON.parse(r.record) as unknown[];
  return out;
}

// runs for every row at ingest: a literal array, no per-field lookups
function fieldsOf(r: ProgramInputs): unknown[] {
  const fields: unknown[] = [
    r.status, r.significant, r.qtrs_with_nc, r.formal_actions, r.informal_actions, r.penalties_usd, r.last_penalty_usd, r.last_penalty_date,
    r.last_formal_action_date, r.history, r.qncr_codes,
  ];
  // CWA_13QTRS_EFFLNT_EXCEEDANCES: only CWA records have it, so the others keep their eleven fields
  if (r.effluent_exceedances !== undefined && r.effluent_exceedances !== null) fields.push(r.effluent_exceedances);
  return fields;
}

/**
 * The stored array (four entries), or null when the facility is in no program the source reports.
 * With `records`, shareable records are stored as their ids.
 */
export function programsArray(p: ProgramsInputs, records?: ProgramRecords): StoredProgram[] | null {
  if (p.caa === null && p.cwa === null && p.rcra === null && p.sdwa === null) return null;
  if (records) return [records.entry(p.caa), records.entry(p.cwa), records.entry(p.rcra), records.entry(p.sdwa)];
  const row = (r: ProgramInputs | null) => (r === null ? null : fieldsOf(r));
  return [row(p.caa), row(p.cwa), row(p.rcra), row(p.sdwa)];
}

const NO_RECORDS: SharedRecords = [];

/** The records of a stored array (null or 0: in no program); `shared`: the index's program_record rows. */
export function programsOfArray(rows: readonly StoredProgram[] | null | 0, shared: SharedRecords = NO_RECORDS): ProgramsInputs {
  if (!rows) return { caa: null, cwa: null, rcra: null, sdwa: null };
  return { caa: programOf(rows[0], shared), cwa: programOf(rows[1], shared), rcra: programOf(rows[2], shared), sdwa: programOf(rows[3], shared) };
}

// runs four times a Starter+ lookup (once per distinct detail): a literal object in ProgramInputs order, no per-field lookups
function programOf(entry: StoredProgram | undefined, shared: SharedRecords): ProgramInputs | null {
  if (entry === null || entry === undefined) return null;
  const r = typeof entry === 'number' ? shared[entry] : entry;
  if (r === undefined) throw new Error(`program record ${String(entry)} is not in the index`);
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
    // fields 9-10: an index of the format before has none (null, not reported)
    history: (r[9] ?? null) as ProgramInputs['history'],
    qncr_codes: (r[10] ?? null) as ProgramInputs['qncr_codes'],
    // field 11 (CWA only): an index of an earlier format has none; absent rather than null so such records read as before
    ...(r[11] === undefined || r[11] === null ? {} : { effluent_exceedances: r[11] as number }),
  };
}
