import { PROGRAMS, type ProgramInputs, type ProgramsInputs, type ScoreInputs } from '../../scoring/model';
import { namesSignificant } from '../../scoring/status';
import type { HeaderInfo } from './columns';
import type { ProgramColumnMap } from './program-columns';
import { Bad, isBlank, parseAmount, parseCount, parseDate } from './values';

/** Why a row was not indexed. Every rejected row lands in the rejects CSV with one of these. */
export const REJECT_REASONS = [
  'missing_id', 'non_numeric_id', 'missing_coordinates', 'coordinates_out_of_range', 'zero_coordinates',
  'duplicate_id', 'bad_date', 'bad_number', 'bad_history', 'wrong_field_count',
] as const;
export type RejectReason = (typeof REJECT_REASONS)[number];

/** A row ready to score: identity and location, plus the score model's inputs. */
export type MappedRow = {
  registry_id: string; fac_name: string; fac_street: string; fac_city: string; fac_state: string; fac_zip: string;
  lat: number; lng: number; fac_naics: string; inputs: ScoreInputs; days_last_inspection: number | null;
};
export type Rejection = { reason: RejectReason; detail: string; registry_id: string };

const DIGITS = /^\d+$/;
const FID = /[?&]fid=(\d+)/;
const HISTORY = /^[_VSU]{0,12}$/;
/** A program's history: CWA's holds 13 quarters, the others 12. */
const PROGRAM_HISTORY = /^[_VSU]{0,13}$/;

/**
 * Maps one record to a facility, or says why it cannot be indexed. Pure: the same fields give the same result.
 * The registry ID comes from the ID column when it is all digits, else from the `fid=` of the DFR URL
 * (facility-search downloads whose IDs a spreadsheet turned into `1.10001E+11`).
 */
export function mapRow(f: string[], header: RowHeader): MappedRow | Rejection {
  const c = header.columns;
  // positions read as static properties at each call site (c.lat, ...): a keyed lookup per field was 13% of ingest's CPU;
  // cells are read with module-level helpers taking `f`, not per-row closures (a closure per row and field cost ~5%)
  const rawId = cell(f, c.registry_id);
  let registry_id = rawId;
  if (!DIGITS.test(rawId)) {
    const fid = FID.exec(cell(f, c.dfr_url))?.[1];
    if (fid) registry_id = fid;
    else if (rawId === '') return { reason: 'missing_id', detail: 'no registry ID (and no DFR URL fid=)', registry_id: '' };
    else return { reason: 'non_numeric_id', detail: `registry ID "${rawId}" is not a number and there is no DFR URL fid=`, registry_id: rawId };
  }

  const rawLat = cell(f, c.lat), rawLng = cell(f, c.lng);
  if (isBlank(rawLat) || isBlank(rawLng)) return { reason: 'missing_coordinates', detail: `lat "${rawLat}", long "${rawLng}"`, registry_id };
  const lat = Number(rawLat), lng = Number(rawLng);
  if (!Number.isFinite(lat) || !Number.isFinite(lng) || lat < -90 || lat > 90 || lng < -180 || lng > 180) {
    return { reason: 'coordinates_out_of_range', detail: `lat "${rawLat}", long "${rawLng}"`, registry_id };
  }
  if (lat === 0 && lng === 0) return { reason: 'zero_coordinates', detail: 'lat 0, long 0 (a placeholder, not a place)', registry_id };

  // an absent column is null (not reported); a blank cell of a present column is 0, as ECHO leaves zero counts blank.
  // Each value is checked as it is parsed, in the order the rejection reports them (the first Bad wins).
  const qtrs = count(f, c.qtrs_with_nc, 'qtrs_with_nc', 12);
  if (qtrs instanceof Bad) return bad(qtrs, 'bad_number', registry_id);
  const inspections = count(f, c.inspection_count, 'inspection_count');
  if (inspections instanceof Bad) return bad(inspections, 'bad_number', registry_id);
  const informal = count(f, c.informal_count, 'informal_count');
  if (informal instanceof Bad) return bad(informal, 'bad_number', registry_id);
  const formal = count(f, c.formal_count, 'formal_action_count');
  if (formal instanceof Bad) return bad(formal, 'bad_number', registry_id);
  const penaltyCount = count(f, c.penalty_count, 'penalty_count');
  if (penaltyCount instanceof Bad) return bad(penaltyCount, 'bad_number', registry_id);
  const total = amount(f, c.total_penalties, 'total_penalties');
  if (total instanceof Bad) return bad(total, 'bad_number', registry_id);
  const last = amount(f, c.last_penalty, 'last_penalty_amt');
  if (last instanceof Bad) return bad(last, 'bad_number', registry_id);
  const rawDays = cell(f, c.days_last_inspection);
  const days = c.days_last_inspection < 0 ? null : parseCount(rawDays, 'days_last_inspection');
  if (days instanceof Bad) return bad(days, 'bad_number', registry_id);
  const fecCases = count(f, header.fec.cases, 'fec_number_of_cases');
  if (fecCases instanceof Bad) return bad(fecCases, 'bad_number', registry_id);
  const fecPenalties = amount(f, header.fec.penalties, 'fec_total_penalties');
  if (fecPenalties instanceof Bad) return bad(fecPenalties, 'bad_number', registry_id);
  // FAC_PROGRAMS_WITH_SNC is a count of programs (0 for none), not a list: anything else is a bad number
  const inSnc = count(f, c.programs_with_snc, 'programs_with_snc');
  if (inSnc instanceof Bad) return bad(inSnc, 'bad_number', registry_id);

  const dLastPenalty = parseDate(cell(f, c.date_last_penalty), 'date_last_penalty');
  if (dLastPenalty instanceof Bad) return bad(dLastPenalty, 'bad_date', registry_id);
  const dLastFormal = parseDate(cell(f, c.date_last_formal), 'date_last_formal_action');
  if (dLastFormal instanceof Bad) return bad(dLastFormal, 'bad_date', registry_id);
  const dLastInformal = parseDate(cell(f, c.date_last_informal), 'date_last_informal_action');
  if (dLastInformal instanceof Bad) return bad(dLastInformal, 'bad_date', registry_id);
  const dLastInspection = parseDate(cell(f, c.date_last_inspection), 'date_last_inspection');
  if (dLastInspection instanceof Bad) return bad(dLastInspection, 'bad_date', registry_id);
  const dLastFec = parseDate(cell(f, header.fec.last_date), 'fec_last_case_date');
  if (dLastFec instanceof Bad) return bad(dLastFec, 'bad_date', registry_id);

  const history = upper(cell(f, c.history));
  if (!HISTORY.test(history)) return { reason: 'bad_history', detail: `compliance history "${history}" is not up to 12 of _ V S U`, registry_id };
  const programs = programsOf(f, header.programs);
  if (programs instanceof Bad) return bad(programs, programs.detail.includes('history') ? 'bad_history' : programs.detail.includes('date') ? 'bad_date' : 'bad_number', registry_id);

  const status = cell(f, c.compliance_status);
  const inputs: ScoreInputs = {
    qtrs_with_nc: qtrs,
    history: c.history < 0 ? null : history,
    compliance_status: c.compliance_status < 0 ? null : status,
    // FAC_SNC_FLG alone is unreliable (N on every row of recent national files): the model reads status and programs too
    snc_flag: c.snc_flag < 0 ? null : upper(cell(f, c.snc_flag)) === 'Y',
    programs_in_snc: inSnc,
    inspection_count: inspections,
    informal_action_count: informal,
    formal_action_count: formal,
    // facility-search downloads have total penalties but no count: null here, the score counts a total above 0 as one
    penalty_count: penaltyCount,
    total_penalties_usd: total,
    last_penalty_usd: last,
    date_last_penalty: dLastPenalty,
    date_last_formal_action: dLastFormal,
    date_last_informal_action: dLastInformal,
    date_last_inspection: dLastInspection,
    federal_cases: fecCases,
    federal_penalties_usd: fecPenalties,
    date_last_federal_case: dLastFec,
    federal_case_ids: header.fec.case_ids < 0 ? null : caseIds(cell(f, header.fec.case_ids)),
    facility_active: c.active_flag < 0 ? null : yesNo(cell(f, c.active_flag)),
    programs,
    not_reported: header.notReported,
  };
  return {
    registry_id,
    fac_name: cell(f, c.name),
    fac_street: cell(f, c.street),
    fac_city: cell(f, c.city),
    fac_state: upper(cell(f, c.state)),
    fac_zip: cell(f, c.zip),
    lat,
    lng,
    fac_naics: naicsOf(cell(f, c.naics)),
    inputs,
    // blank or NA-like ('NA', 'N/A', '-'): no day count, so no vote for the as-of date (parseCount reads those as 0)
    days_last_inspection: isBlank(rawDays) ? null : days,
  };
}

/**
 * Cell `i` of a record, trimmed; '' for an absent column (-1) or a short record. Most cells start and end
 * with a printable ASCII character and are returned as they are, without calling trim.
 */
function cell(f: string[], i: number): string {
  if (i < 0) return '';
  const v = f[i];
  if (v === undefined) return '';
  const n = v.length;
  if (n === 0) return v;
  const a = v.charCodeAt(0), z = v.charCodeAt(n - 1);
  return a > 32 && a < 127 && z > 32 && z < 127 ? v : v.trim();
}

/** Upper case, skipping the call for the usual one-letter flags and already upper-case values of the fast path. */
function upper(v: string): string {
  if (v.length === 0 || v === 'Y' || v === 'N') return v;
  return v.toUpperCase();
}

function naicsOf(v: string): string {
  const c = v.charCodeAt(0);
  if (!(c >= 48 && c <= 57)) return ''; // also '' (NaN)
  let j = 1;
  while (j < v.length && v.charCodeAt(j) >= 48 && v.charCodeAt(j) <= 57) j++;
  return j === v.length ? v : v.slice(0, j);
}

/** FEC_CASE_IDS: case numbers separated by spaces, commas or semicolons, each once, in file order. */
function caseIds(v: string): string[] {
  if (v === '') return [];
  return [...new Set(v.split(/[\s,;]+/).filter((x) => x !== ''))];
}

/** A Y/N flag: true, false, or null when the cell says neither. */
function yesNo(v: string): boolean | null {
  const u = upper(v);
  return u === 'Y' ? true : u === 'N' ? false : null;
}

function count(f: string[], i: number, column: string, max?: number): number | null | Bad {
  return i < 0 ? null : parseCount(cell(f, i), column, max);
}

function amount(f: string[], i: number, column: string): number | null | Bad {
  return i < 0 ? null : parseAmount(cell(f, i), column);
}

function bad(b: Bad, reason: RejectReason, registry_id: string): Rejection {
  return { reason, detail: b.detail, registry_id };
}

/** What mapRow needs of a header (columns.ts readHeader). */
export type RowHeader = Pick<HeaderInfo, 'columns' | 'programs' | 'fec' | 'notReported'>;

const NOT_IN_PROGRAM = /^not applicable/i;

/**
 * One program's record, or null when the facility is not in it: the program flag (AIR_FLAG, ...) says
 * so when the file has it; without it (facility-search), a status other than blank / 'Not Applicable'.
 */
function programOf(f: string[], c: ProgramColumnMap): ProgramInputs | null | Bad {
  const status = cell(f, c.status);
  if (c.flag >= 0 ? upper(cell(f, c.flag)) !== 'Y' : status === '' || NOT_IN_PROGRAM.test(status)) return null;
  const qtrs = count(f, c.qtrs_with_nc, 'program qtrs_with_nc', 13);
  if (qtrs instanceof Bad) return qtrs;
  const formal = count(f, c.formal_actions, 'program formal_action_count');
  if (formal instanceof Bad) return formal;
  const informal = count(f, c.informal_actions, 'program informal_count');
  if (informal instanceof Bad) return informal;
  const penalties = amount(f, c.penalties_usd, 'program penalties');
  if (penalties instanceof Bad) return penalties;
  const lastUsd = amount(f, c.last_penalty_usd, 'program last_penalty_amt');
  if (lastUsd instanceof Bad) return lastUsd;
  const lastPenalty = parseDate(cell(f, c.last_penalty_date), 'program last_penalty_date');
  if (lastPenalty instanceof Bad) return lastPenalty;
  const lastFormal = parseDate(cell(f, c.last_formal_action_date), 'program date_last_formal_action');
  if (lastFormal instanceof Bad) return lastFormal;
  const history = upper(cell(f, c.history));
  if (!PROGRAM_HISTORY.test(history)) return new Bad(`program compliance history "${history}" is not up to 13 of _ V S U`);
  const flag = upper(cell(f, c.significant));
  return {
    status: c.status < 0 || status === '' ? null : status,
    // a status naming SNC (or the Clean Air Act's "High Priority Violation") is significant, with or without a flag column
    significant: c.significant < 0 && c.status < 0 ? null : flag === 'Y' || namesSignificant(status),
    qtrs_with_nc: qtrs,
    formal_actions: formal,
    informal_actions: informal,
    penalties_usd: penalties,
    last_penalty_usd: lastUsd,
    last_penalty_date: lastPenalty,
    last_formal_action_date: lastFormal,
    history: c.history < 0 ? null : history,
    qncr_codes: c.qncr_codes < 0 ? null : upper(cell(f, c.qncr_codes)),
  };
}

function programsOf(f: string[], columns: RowHeader['programs']): ProgramsInputs | Bad {
  const out = { caa: null, cwa: null, rcra: null, sdwa: null } as ProgramsInputs;
  for (const p of PROGRAMS) {
    const c = columns[p];
    if (c === null) continue;
    const r = programOf(f, c);
    if (r instanceof Bad) return r;
    out[p] = r;
  }
  return out;
}
