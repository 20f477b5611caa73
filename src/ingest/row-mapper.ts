import type { ScoreInputs } from '../scoring/model';
import { amount, cell, codesOf, count, upper } from './cells';
import type { HeaderInfo } from './columns';
import { evidenceOf, type Evidence } from './evidence-columns';
import { programsOf } from './program-row';
import { accuracyMeters } from '../index/location-quality';
import { Bad, isBlank, parseCount, parseDate } from './values';
import type { RecordCells } from './record-cells';

/** Why a row was not indexed. Every rejected row lands in the rejects CSV with one of these. */
export const REJECT_REASONS = ['missing_id', 'non_numeric_id', 'duplicate_id', 'bad_date', 'bad_number', 'bad_history', 'wrong_field_count'] as const;
export type RejectReason = (typeof REJECT_REASONS)[number];

/**
 * A row ready to score: identity and location, plus the score model's inputs. `lat`/`lng` are null for
 * a facility without usable coordinates (blank, out of range, or the (0, 0) placeholder): it is still
 * a facility, indexed and found by ID and search, only not placed on a map.
 */
export type MappedRow = {
  registry_id: string; fac_name: string; fac_street: string; fac_city: string; fac_state: string; fac_zip: string;
  lat: number | null; lng: number | null; fac_naics: string; inputs: ScoreInputs; days_last_inspection: number | null;
  evidence: Evidence;
  /** FAC_ACCURACY_METERS (null: blank or absent) and FAC_COLLECTION_METHOD ('' : blank or absent), for a placed facility. */
  loc_accuracy_m: number | null; loc_method: string;
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
export function mapRow(f: RecordCells, header: RowHeader): MappedRow | Rejection {
  const c = header.columns;
  // positions read as static properties at each call site (c.lat, ...): a keyed lookup per field was a large share of
  // ingest's CPU; cells are read with module-level helpers taking `f`, not per-row closures (a closure per row and field)
  const rawId = cell(f, c.registry_id);
  let registry_id = rawId;
  if (!DIGITS.test(rawId)) {
    const fid = FID.exec(cell(f, c.dfr_url))?.[1];
    if (fid) registry_id = fid;
    else if (rawId === '') return { reason: 'missing_id', detail: 'no registry ID (and no DFR URL fid=)', registry_id: '' };
    else return { reason: 'non_numeric_id', detail: `registry ID "${rawId}" is not a number and there is no DFR URL fid=`, registry_id: rawId };
  }

  const place = placeOf(cell(f, c.lat), cell(f, c.lng));

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
    federal_case_ids: header.fec.case_ids < 0 ? null : codesOf(cell(f, header.fec.case_ids)),
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
    lat: place === null ? null : place[0],
    lng: place === null ? null : place[1],
    evidence: evidenceOf(f, header.evidence),
    loc_accuracy_m: place === null ? null : accuracyMeters(cell(f, c.accuracy_m)),
    loc_method: place === null ? '' : upper(cell(f, c.collection_method).trim()),
    fac_naics: naicsOf(cell(f, c.naics)),
    inputs,
    // blank or NA-like ('NA', 'N/A', '-'): no day count, so no vote for the as-of date (parseCount reads those as 0)
    days_last_inspection: isBlank(rawDays) ? null : days,
  };
}

function naicsOf(v: string): string {
  const c = v.charCodeAt(0);
  if (!(c >= 48 && c <= 57)) return ''; // also '' (NaN)
  let j = 1;
  while (j < v.length && v.charCodeAt(j) >= 48 && v.charCodeAt(j) <= 57) j++;
  return j === v.length ? v : v.slice(0, j);
}

/** A Y/N flag: true, false, or null when the cell says neither. */
function yesNo(v: string): boolean | null {
  const u = upper(v);
  return u === 'Y' ? true : u === 'N' ? false : null;
}

function bad(b: Bad, reason: RejectReason, registry_id: string): Rejection {
  return { reason, detail: b.detail, registry_id };
}

/** What mapRow needs of a header (columns.ts readHeader). */
export type RowHeader = Pick<HeaderInfo, 'columns' | 'programs' | 'fec' | 'notReported' | 'evidence'>;

/** [lat, lng], or null when either is blank, not a number, out of range, or exactly (0, 0) (a placeholder, not a place). */
function placeOf(rawLat: string, rawLng: string): [number, number] | null {
  if (isBlank(rawLat) || isBlank(rawLng)) return null;
  const lat = Number(rawLat), lng = Number(rawLng);
  if (!Number.isFinite(lat) || !Number.isFinite(lng) || lat < -90 || lat > 90 || lng < -180 || lng > 180) return null;
  return lat === 0 && lng === 0 ? null : [lat, lng];
}
