import { PROGRAMS, type ProgramInputs, type ProgramsInputs, type ScoreInputs } from '../../scoring/model';
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

/**
 * Maps one record to a facility, or says why it cannot be indexed. Pure: the same fields give the same result.
 * The registry ID comes from the ID column when it is all digits, else from the `fid=` of the DFR URL
 * (facility-search downloads whose IDs a spreadsheet turned into `1.10001E+11`).
 */
export function mapRow(f: string[], header: RowHeader): MappedRow | Rejection {
  const c = header.columns;
  // positions read as static properties at each call site (c.lat, ...): a keyed lookup per field was 13% of ingest's CPU
  const at = (i: number) => (i < 0 ? '' : (f[i] ?? '').trim());
  const rawId = at(c.registry_id);
  const fid = FID.exec(at(c.dfr_url))?.[1];
  let registry_id = rawId;
  if (!DIGITS.test(rawId)) {
    if (fid) registry_id = fid;
    else if (rawId === '') return { reason: 'missing_id', detail: 'no registry ID (and no DFR URL fid=)', registry_id: '' };
    else return { reason: 'non_numeric_id', detail: `registry ID "${rawId}" is not a number and there is no DFR URL fid=`, registry_id: rawId };
  }

  const rawLat = at(c.lat), rawLng = at(c.lng);
  if (isBlank(rawLat) || isBlank(rawLng)) return { reason: 'missing_coordinates', detail: `lat "${rawLat}", long "${rawLng}"`, registry_id };
  const lat = Number(rawLat), lng = Number(rawLng);
  if (!Number.isFinite(lat) || !Number.isFinite(lng) || lat < -90 || lat > 90 || lng < -180 || lng > 180) {
    return { reason: 'coordinates_out_of_range', detail: `lat "${rawLat}", long "${rawLng}"`, registry_id };
  }
  if (lat === 0 && lng === 0) return { reason: 'zero_coordinates', detail: 'lat 0, long 0 (a placeholder, not a place)', registry_id };

  const bad = (b: Bad, reason: RejectReason): Rejection => ({ reason, detail: b.detail, registry_id });
  // an absent column is null (not reported); a blank cell of a present column is 0, as ECHO leaves zero counts blank
  const count = (i: number, column: string, max?: number) => (i < 0 ? null : parseCount(at(i), column, max));
  const amount = (i: number, column: string) => (i < 0 ? null : parseAmount(at(i), column));
  const qtrs = count(c.qtrs_with_nc, 'qtrs_with_nc', 12);
  const inspections = count(c.inspection_count, 'inspection_count');
  const informal = count(c.informal_count, 'informal_count');
  const formal = count(c.formal_count, 'formal_action_count');
  const penaltyCount = count(c.penalty_count, 'penalty_count');
  const total = amount(c.total_penalties, 'total_penalties');
  const last = amount(c.last_penalty, 'last_penalty_amt');
  const days = count(c.days_last_inspection, 'days_last_inspection');
  const fecCases = count(header.fec.cases, 'fec_number_of_cases');
  const fecPenalties = amount(header.fec.penalties, 'fec_total_penalties');
  for (const v of [qtrs, inspections, informal, formal, penaltyCount, total, last, days, fecCases, fecPenalties]) if (v instanceof Bad) return bad(v, 'bad_number');

  const dLastPenalty = parseDate(at(c.date_last_penalty), 'date_last_penalty');
  const dLastFormal = parseDate(at(c.date_last_formal), 'date_last_formal_action');
  const dLastInformal = parseDate(at(c.date_last_informal), 'date_last_informal_action');
  const dLastInspection = parseDate(at(c.date_last_inspection), 'date_last_inspection');
  const dLastFec = parseDate(at(header.fec.last_date), 'fec_last_case_date');
  for (const v of [dLastPenalty, dLastFormal, dLastInformal, dLastInspection, dLastFec]) if (v instanceof Bad) return bad(v, 'bad_date');

  const history = at(c.history).toUpperCase();
  if (!HISTORY.test(history)) return { reason: 'bad_history', detail: `compliance history "${history}" is not up to 12 of _ V S U`, registry_id };
  const programs = programsOf(at, header.programs);
  if (programs instanceof Bad) return bad(programs, programs.detail.includes('date') ? 'bad_date' : 'bad_number');

  const status = at(c.compliance_status);
  const inputs: ScoreInputs = {
    qtrs_with_nc: qtrs as number | null,
    history: c.history < 0 ? null : history,
    compliance_status: c.compliance_status < 0 ? null : status,
    // FAC_SNC_FLG alone is unreliable (N on every row of recent national files): status and programs count too
    significant_violation: /significant/i.test(status) || at(c.programs_with_snc) !== '' || at(c.snc_flag).toUpperCase() === 'Y',
    inspection_count: inspections as number | null,
    informal_action_count: informal as number | null,
    formal_action_count: formal as number | null,
    // facility-search downloads have total penalties but no count: null here, the score counts a total above 0 as one
    penalty_count: penaltyCount as number | null,
    total_penalties_usd: total as number | null,
    last_penalty_usd: last as number | null,
    date_last_penalty: dLastPenalty as string | null,
    date_last_formal_action: dLastFormal as string | null,
    date_last_informal_action: dLastInformal as string | null,
    date_last_inspection: dLastInspection as string | null,
    federal_cases: fecCases as number | null,
    federal_penalties_usd: fecPenalties as number | null,
    date_last_federal_case: dLastFec as string | null,
    programs,
    not_reported: header.notReported,
  };
  return {
    registry_id,
    fac_name: at(c.name),
    fac_street: at(c.street),
    fac_city: at(c.city),
    fac_state: at(c.state).toUpperCase(),
    fac_zip: at(c.zip),
    lat,
    lng,
    fac_naics: /^\d+/.exec(at(c.naics))?.[0] ?? '',
    inputs,
    // blank or NA-like ('NA', 'N/A', '-'): no day count, so no vote for the as-of date (parseCount reads those as 0)
    days_last_inspection: isBlank(at(c.days_last_inspection)) ? null : (days as number),
  };
}

/** What mapRow needs of a header (columns.ts readHeader). */
export type RowHeader = Pick<HeaderInfo, 'columns' | 'programs' | 'fec' | 'notReported'>;

const SIGNIFICANT_STATUS = /significant|\bsnc\b|\bhpv\b/i;
const NOT_IN_PROGRAM = /^not applicable/i;

/**
 * One program's record, or null when the facility is not in it: the program flag (AIR_FLAG, ...) says
 * so when the file has it; without it (facility-search), a status other than blank / 'Not Applicable'.
 */
function programOf(at: (i: number) => string, c: ProgramColumnMap): ProgramInputs | null | Bad {
  const status = at(c.status);
  if (c.flag >= 0 ? at(c.flag).toUpperCase() !== 'Y' : status === '' || NOT_IN_PROGRAM.test(status)) return null;
  const n = (i: number, column: string, max?: number) => (i < 0 ? null : parseCount(at(i), column, max));
  const usd = (i: number, column: string) => (i < 0 ? null : parseAmount(at(i), column));
  const qtrs = n(c.qtrs_with_nc, 'program qtrs_with_nc', 13);
  const formal = n(c.formal_actions, 'program formal_action_count');
  const informal = n(c.informal_actions, 'program informal_count');
  const penalties = usd(c.penalties_usd, 'program penalties');
  const lastUsd = usd(c.last_penalty_usd, 'program last_penalty_amt');
  for (const v of [qtrs, formal, informal, penalties, lastUsd]) if (v instanceof Bad) return v;
  const lastPenalty = parseDate(at(c.last_penalty_date), 'program last_penalty_date');
  const lastFormal = parseDate(at(c.last_formal_action_date), 'program date_last_formal_action');
  for (const v of [lastPenalty, lastFormal]) if (v instanceof Bad) return v;
  const flag = at(c.significant).toUpperCase();
  return {
    status: c.status < 0 || status === '' ? null : status,
    significant: c.significant < 0 && c.status < 0 ? null : flag === 'Y' || SIGNIFICANT_STATUS.test(status),
    qtrs_with_nc: qtrs as number | null,
    formal_actions: formal as number | null,
    informal_actions: informal as number | null,
    penalties_usd: penalties as number | null,
    last_penalty_usd: lastUsd as number | null,
    last_penalty_date: lastPenalty as string | null,
    last_formal_action_date: lastFormal as string | null,
  };
}

function programsOf(at: (i: number) => string, columns: RowHeader['programs']): ProgramsInputs | Bad {
  const out = { caa: null, cwa: null, rcra: null, sdwa: null } as ProgramsInputs;
  for (const p of PROGRAMS) {
    const c = columns[p];
    if (c === null) continue;
    const r = programOf(at, c);
    if (r instanceof Bad) return r;
    out[p] = r;
  }
  return out;
}
