import { csvField } from '../../src/ingest/csv-records';
import { EXPORTER_COLUMNS_2025 } from '../../src/ingest/exporter-columns';
import type { Compliance } from './compliance';
import { epaRegion, type Place } from './geography';
import { INDUSTRIES } from './names';
import type { Rng } from './rng';

const COL = Object.fromEntries(EXPORTER_COLUMNS_2025.map((c, i) => [c, i])) as Record<(typeof EXPORTER_COLUMNS_2025)[number], number>;

export type Facility = {
  id: string;
  name: string;
  street: string;
  place: Place;
  point: { lat: number; lng: number } | null;
  /** The point's draws come from the `extra` stream (rows the sample was first drawn without coordinates): see makeFacility. */
  pointOnExtra: boolean;
  industry: (typeof INDUSTRIES)[number];
  programs: string[];
  compliance: Compliance;
};

/** MM/DD/YYYY of `days` before the as-of date (epoch ms, UTC midnight), as ECHO writes dates. */
function mdy(asOfMs: number, days: number | null): string {
  if (days === null) return '';
  const d = new Date(asOfMs - days * 86_400_000);
  const mm = String(d.getUTCMonth() + 1).padStart(2, '0');
  const dd = String(d.getUTCDate()).padStart(2, '0');
  return `${mm}/${dd}/${d.getUTCFullYear()}`;
}

const yn = (b: boolean) => (b ? 'Y' : 'N');
/** A count or amount as this row writes it: zero as `0`, or blank on rows that leave zeros blank (EPA's file has both). */
const numberIn = (c: Compliance) => (n: number) => (n === 0 ? (c.zeroAsBlank ? '' : '0') : String(n));
/** The latest event ever: the one in the 5-year window, else an older one. */
const latestDays = (inWindow: number | null, older: number | null) => inWindow ?? older;

/** FNV-1a of the registry ID in [0, 1): a draw that leaves the row's random streams (and so the rest of the sample) as they were. */
function idFraction(id: string, salt: number): number {
  let h = 0x811c9dc5 ^ salt;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return (h >>> 0) / 2 ** 32;
}

const CENTROIDS = [
  { method: 'ZIP CODE-CENTROID', accuracy: 3000 },
  { method: 'ZIP CODE-CENTROID', accuracy: '' },
  { method: 'ZIP+4 CENTROID', accuracy: 200 },
  { method: 'CENSUS BLOCK/GROUP-1990-CENTROID', accuracy: 1000 },
  { method: 'PUBLIC LAND SURVEY-SECTION', accuracy: 1600 },
] as const;

/**
 * FAC_COLLECTION_METHOD and FAC_ACCURACY_METERS as EPA's file has them: many rows leave both empty,
 * most others name a precise method; a small share are an area's centroid (about 0.5% in an FRS
 * extract, ZIP code centroids the most) or a precise-sounding method with a coarse accuracy.
 */
function locationQuality(id: string, method: string, accuracy: number): { method: string; accuracy: string | number } {
  const u = idFraction(id, 1);
  if (u < 0.006) return CENTROIDS[Math.floor(idFraction(id, 2) * CENTROIDS.length)]!;
  if (u < 0.009) return { method: 'INTERPOLATION-MAP', accuracy: 2000 };
  if (u < 0.4) return { method: '', accuracy: '' };
  return { method, accuracy: u < 0.55 ? '' : accuracy };
}

/** One exporter CSV line (no newline) for the facility, in the exact 2025 column order (`extra`: see makeFacility). */
export function exporterLine(f: Facility, asOfMs: number, rng: Rng, extra: Rng): string {
  const v = Array<string>(EXPORTER_COLUMNS_2025.length).fill('');
  const c = f.compliance;
  const num = numberIn(c);
  const set = (name: keyof typeof COL, value: string | number) => (v[COL[name]] = String(value));
  const state = f.place.state;
  set('REGISTRY_ID', f.id);
  set('FAC_NAME', f.name);
  set('FAC_STREET', f.street);
  set('FAC_CITY', f.place.city);
  set('FAC_STATE', state);
  set('FAC_ZIP', rng.chance(0.1) ? `${f.place.zip}-${String(rng.int(1, 9999)).padStart(4, '0')}` : f.place.zip);
  set('FAC_EPA_REGION', epaRegion(state));
  set('FAC_INDIAN_CNTRY_FLG', yn(rng.chance(0.01)));
  const federal = rng.chance(0.02);
  set('FAC_FEDERAL_FLG', yn(federal));
  if (federal) set('FAC_FEDERAL_AGENCY', rng.pick(['Department of Defense', 'Department of Energy', 'Department of the Interior', 'General Services Administration']));
  set('FAC_US_MEX_BORDER_FLG', yn(['TX', 'NM', 'AZ', 'CA'].includes(state) && (f.point?.lat ?? 90) < 32.8));
  set('FAC_CHESAPEAKE_BAY_FLG', yn(['MD', 'DC', 'VA', 'DE'].includes(state) && rng.chance(0.7)));
  set('FAC_NAA_FLAG', yn(f.place.metro && rng.chance(0.6)));
  if (f.point) {
    const pointRng = f.pointOnExtra ? extra : rng;
    set('FAC_LAT', f.point.lat.toFixed(6));
    set('FAC_LONG', f.point.lng.toFixed(6));
    const method = pointRng.pick(['ADDRESS MATCHING-HOUSE NUMBER', 'INTERPOLATION-PHOTO', 'GPS CODE (PSEUDO RANGE) DIFFERENTIAL', 'ADDRESS MATCHING-STREET CENTERLINE']);
    set('FAC_REFERENCE_POINT', pointRng.pick(['ENTRANCE POINT OF A FACILITY OR STATION', 'CENTER OF A FACILITY OR STATION', 'PLANT ENTRANCE (GENERAL)', '']));
    const accuracy = pointRng.pick([10, 25, 30, 50, 100, 150]);
    const quality = locationQuality(f.id, method, accuracy);
    set('FAC_COLLECTION_METHOD', quality.method);
    set('FAC_ACCURACY_METERS', quality.accuracy);
  }
  set('FAC_DERIVED_ZIP', f.place.zip);
  set('FAC_PERCENT_MINORITY', (rng.next() * 100).toFixed(2));
  set('FAC_POP_DEN', (f.place.metro ? rng.next() * 12000 : rng.next() * 400).toFixed(2));
  set('FAC_MAJOR_FLAG', yn(rng.chance(f.industry.weight < 1 ? 0.6 : 0.03)));
  set('FAC_ACTIVE_FLAG', yn(c.active));
  set('FAC_INSPECTION_COUNT', num(c.inspections));
  set('FAC_DATE_LAST_INSPECTION', mdy(asOfMs, c.daysLastInspection));
  if (c.daysLastInspection !== null) set('FAC_DAYS_LAST_INSPECTION', c.daysLastInspection);
  // counts and totals cover 5 years; the DATE_LAST_* columns and the last amount are the latest event ever
  set('FAC_INFORMAL_COUNT', num(c.informal));
  set('FAC_DATE_LAST_INFORMAL_ACTION', mdy(asOfMs, latestDays(c.daysLastInformal, c.daysOldInformal)));
  set('FAC_FORMAL_ACTION_COUNT', num(c.formal));
  set('FAC_DATE_LAST_FORMAL_ACTION', mdy(asOfMs, latestDays(c.daysLastFormal, c.daysOldFormal)));
  set('FAC_TOTAL_PENALTIES', num(c.totalPenalties));
  set('FAC_PENALTY_COUNT', num(c.penaltyCount));
  set('FAC_DATE_LAST_PENALTY', mdy(asOfMs, latestDays(c.daysLastPenalty, c.daysOldPenalty)));
  set('FAC_LAST_PENALTY_AMT', num(c.lastPenalty || c.oldPenalty));
  set('FAC_QTRS_WITH_NC', c.status === '' ? '' : num(c.qtrsWithNc));
  const second = secondSncProgram(f);
  // FAC_PROGRAMS_WITH_SNC counts the programs in SNC (0 for none); one row in 20 leaves it blank
  set('FAC_PROGRAMS_WITH_SNC', c.snc ? (second ? 2 : 1) : Number(f.id.slice(-2)) % 20 === 7 ? '' : 0);
  set('FAC_COMPLIANCE_STATUS', c.status);
  set('FAC_SNC_FLG', 'N'); // as in EPA's recent national files: N on every row, so status/programs carry SNC
  set('FAC_3YR_COMPLIANCE_HISTORY', c.history);
  for (const p of ['AIR', 'NPDES', 'SDWIS', 'RCRA', 'TRI', 'GHG'] as const) set(`${p}_FLAG`, yn(f.programs.includes(p)));
  programColumns(set, f, asOfMs, rng, extra);
  set('DFR_URL', `https://echo.epa.gov/detailed-facility-report?fid=${f.id}`);
  set('FAC_SIC_CODES', f.industry.sic);
  set('FAC_NAICS_CODES', f.industry.naics);
  const epaLed = rng.chance(0.25);
  set(epaLed ? 'FAC_DATE_LAST_INSPECTION_EPA' : 'FAC_DATE_LAST_INSPECTION_STATE', mdy(asOfMs, c.daysLastInspection));
  set(epaLed ? 'FAC_DATE_LAST_FORMAL_ACT_EPA' : 'FAC_DATE_LAST_FORMAL_ACT_ST', mdy(asOfMs, latestDays(c.daysLastFormal, c.daysOldFormal)));
  set(epaLed ? 'FAC_DATE_LAST_INFORMAL_ACT_EPA' : 'FAC_DATE_LAST_INFORMAL_ACT_ST', mdy(asOfMs, latestDays(c.daysLastInformal, c.daysOldInformal)));
  set('TRI_REPORTER', yn(f.programs.includes('TRI')));
  set('FAC_IMP_WATER_FLG', yn(f.programs.includes('NPDES') && rng.chance(0.2)));
  return v.map(csvField).join(',');
}

type Setter = (name: keyof typeof COL, value: string | number) => void;

/** The lead program's enforcement record; CAA, CWA and RCRA name these six columns alike (dates and last amount: the latest ever). */
function enforcementColumns(set: Setter, prog: 'CAA' | 'CWA' | 'RCRA', c: Facility['compliance'], asOfMs: number): void {
  const num = numberIn(c);
  set(`${prog}_INFORMAL_COUNT`, num(c.informal));
  set(`${prog}_FORMAL_ACTION_COUNT`, num(c.formal));
  set(`${prog}_DATE_LAST_FORMAL_ACTION`, mdy(asOfMs, latestDays(c.daysLastFormal, c.daysOldFormal)));
  set(`${prog}_PENALTIES`, num(c.totalPenalties));
  set(`${prog}_LAST_PENALTY_DATE`, mdy(asOfMs, latestDays(c.daysLastPenalty, c.daysOldPenalty)));
  set(`${prog}_LAST_PENALTY_AMT`, num(c.lastPenalty || c.oldPenalty));
}

/**
 * CWA's 13 quarters: the 12 of the facility history and one older. The lead program's older quarter
 * is in violation for a third of violators (so CWA_QTRS_WITH_NC can reach 13); a program in SNC with
 * the facility but with no record of its own repeats the history.
 */
function cwaHistory(f: Facility, lead: boolean, rng: Rng): string {
  const h = f.compliance.history || '____________';
  return `${lead && f.compliance.qtrsWithNc > 0 && rng.chance(1 / 3) ? 'V' : '_'}${h}`;
}

/**
 * CWA_3_YR_QNCR_CODES, one code a quarter (`_` none, `1` unresolved, `2` resolved pending), for the
 * CWA-lead facilities in violation that have them (most cells are empty, as in EPA's file): an SNC
 * with an enforcement response in place ends on `2`, sometimes without a formal action counted.
 */
function qncrCodes(f: Facility, cwa13: string, rng: Rng): string {
  const c = f.compliance;
  if (c.qtrsWithNc === 0 || !rng.chance(c.snc ? 0.6 : 0.2)) return '';
  const codes: string[] = [...cwa13].map((q) => (q === 'V' || q === 'S' ? '1' : '_'));
  if (c.snc && rng.chance(c.formal > 0 ? 0.5 : 0.3)) codes[codes.length - 1] = '2';
  return codes.join('');
}

/**
 * CWA_13QTRS_EFFLNT_EXCEEDANCES: effluent limit exceedances over CWA's 13 quarters. Only a discharger
 * in violation has them, and only about half of those (the rest are reporting violations, such as a
 * missing discharge monitoring report): one to three exceedances per quarter in violation. Decided
 * from the ID's digits, so no random draw is added and every other column stays as it was.
 */
function effluentExceedances(f: Facility, cwa13: string, lead: boolean): number {
  const quarters = violationQuarters(cwa13);
  if (!lead || quarters === 0 || Number(f.id.slice(-3)) % 10 >= 5) return 0;
  return quarters * (1 + (Number(f.id.slice(-4, -3)) % 3));
}

const violationQuarters = (h: string) => [...h].filter((q) => q === 'V' || q === 'S').length;

const SNC_PROGRAMS = new Set(['AIR', 'NPDES', 'RCRA', 'SDWIS']);

/**
 * One in four facilities in SNC with a second compliance program (decided from the ID's digits, so no
 * random draw is added and every other row stays as it was) is in SNC under that program too, for the
 * same quarters but with no enforcement record of its own: how "SNC under two programs" looks in ECHO.
 */
function secondSncProgram(f: Facility): string | null {
  if (!f.compliance.snc) return null;
  const second = f.programs.slice(1).find((p) => SNC_PROGRAMS.has(p));
  return second && Number(f.id.slice(-2)) % 4 === 0 ? second : null;
}

/**
 * A program's system IDs as the exporter writes them: one, or (one facility in five, decided from
 * its ID's digits so no random draw is added) two joined by a space. `make(n)` is ID number n, in
 * the program's own format: ICIS-Air ss + 16 digits, NPDES ss + 7, RCRA handler ssD + 9, SDWA PWSID
 * ss + 7, TRI ZIP + 5 letters of the name + 5.
 */
function programIds(f: Facility, make: (n: number) => string): string {
  return Number(f.id.slice(-1)) % 5 === 0 ? `${make(1)} ${make(2)}` : make(1);
}

/** The first 5 letters of a name, upper-case, padded with X (a TRI facility ID's middle part). */
function letters(name: string): string {
  return (name.toUpperCase().replace(/[^A-Z]/g, '') + 'XXXXX').slice(0, 5);
}

/** Program-level columns: the first (lead) program carries the facility's enforcement record, others are clean (but see secondSncProgram). */
function programColumns(set: Setter, f: Facility, asOfMs: number, rng: Rng, extra: Rng): void {
  const c = f.compliance;
  const id = f.id.slice(-8);
  const st = f.place.state;
  const clean = '____________';
  const second = secondSncProgram(f);
  const own = (p: string) => f.programs[0] === p;
  const inViolation = (p: string) => own(p) || second === p; // quarters, status, SNC flag and history
  const status = (p: string) => (inViolation(p) ? c.status || 'No Violation Identified' : 'No Violation Identified');
  if (f.programs.includes('AIR')) {
    set('AIR_IDS', programIds(f, (n) => `${st}000099${id}0${n}`));
    set('CAA_PERMIT_TYPES', rng.pick(['Minor', 'Synthetic Minor', 'Major']));
    set('CAA_NAICS', f.industry.naics);
    set('CAA_SICS', f.industry.sic);
    set('CAA_EVALUATION_COUNT', own('AIR') ? c.inspections : rng.int(0, 2));
    if (own('AIR')) {
      if (c.daysLastInspection !== null) set('CAA_DAYS_LAST_EVALUATION', c.daysLastInspection);
      enforcementColumns(set, 'CAA', c, asOfMs);
    }
    set('CAA_QTRS_WITH_NC', inViolation('AIR') ? c.qtrsWithNc : 0);
    set('CAA_COMPLIANCE_STATUS', status('AIR'));
    set('CAA_HPV_FLAG', yn(inViolation('AIR') && c.snc));
    set('CAA_3YR_COMPL_QTRS_HISTORY', inViolation('AIR') ? c.history : clean);
  }
  if (f.programs.includes('NPDES')) {
    const permit = rng.pick(['General Permit Covered Facility', 'NPDES Individual Permit', 'Unpermitted Facility']);
    // a general permit's coverage is numbered ssR + 6 (TXR05A123), an individual permit ss + 7 digits (TX0123456)
    set('NPDES_IDS', programIds(f, (n) => (permit === 'General Permit Covered Facility' ? `${st}R99${n}${id.slice(-3)}` : `${st}099${n}${id.slice(-3)}`)));
    set('CWA_PERMIT_TYPES', permit);
    set('CWA_NAICS', f.industry.naics);
    set('CWA_SICS', f.industry.sic);
    set('CWA_INSPECTION_COUNT', own('NPDES') ? c.inspections : rng.int(0, 2));
    if (own('NPDES')) {
      if (c.daysLastInspection !== null) set('CWA_DAYS_LAST_INSPECTION', c.daysLastInspection);
      enforcementColumns(set, 'CWA', c, asOfMs);
    }
    const cwa13 = inViolation('NPDES') ? cwaHistory(f, own('NPDES'), extra) : `_${clean}`;
    set('CWA_QTRS_WITH_NC', violationQuarters(cwa13));
    set('CWA_COMPLIANCE_STATUS', status('NPDES'));
    set('CWA_SNC_FLAG', yn(inViolation('NPDES') && c.snc));
    set('CWA_13QTRS_COMPL_HISTORY', cwa13);
    if (own('NPDES')) set('CWA_3_YR_QNCR_CODES', qncrCodes(f, cwa13, extra));
    set('CWA_13QTRS_EFFLNT_EXCEEDANCES', effluentExceedances(f, cwa13, own('NPDES')));
  }
  if (f.programs.includes('RCRA')) {
    set('RCRA_IDS', programIds(f, (n) => `${st}D99${n}${id.slice(-6)}`));
    set('RCRA_PERMIT_TYPES', rng.pick(['Very Small Quantity Generator', 'Small Quantity Generator', 'Large Quantity Generator', 'Other']));
    set('RCRA_NAICS', f.industry.naics);
    set('RCRA_INSPECTION_COUNT', own('RCRA') ? c.inspections : rng.int(0, 1));
    if (own('RCRA')) {
      if (c.daysLastInspection !== null) set('RCRA_DAYS_LAST_EVALUATION', c.daysLastInspection);
      enforcementColumns(set, 'RCRA', c, asOfMs);
    }
    set('RCRA_QTRS_WITH_NC', inViolation('RCRA') ? c.qtrsWithNc : 0);
    set('RCRA_COMPLIANCE_STATUS', status('RCRA'));
    set('RCRA_SNC_FLAG', yn(inViolation('RCRA') && c.snc));
    set('RCRA_3YR_COMPL_QTRS_HISTORY', inViolation('RCRA') ? c.history : clean);
  }
  if (f.programs.includes('SDWIS')) {
    set('SDWA_IDS', programIds(f, (n) => `${st}99${n}${id.slice(-4)}`));
    set('SDWA_SYSTEM_TYPES', rng.pick(['Community water system', 'Non-Transient non-community system', 'Transient non-community system']));
    set('SDWA_INFORMAL_COUNT', own('SDWIS') ? c.informal : 0);
    set('SDWA_FORMAL_ACTION_COUNT', own('SDWIS') ? c.formal : 0);
    set('SDWA_COMPLIANCE_STATUS', status('SDWIS'));
    set('SDWA_SNC_FLAG', yn(inViolation('SDWIS') && c.snc));
  }
  if (f.programs.includes('TRI')) {
    set('TRI_IDS', programIds(f, (n) => `${f.place.zip}${letters(f.name)}99${n}${id.slice(-2)}`));
    const onSite = Math.round(Math.exp(8 + 2 * rng.normal()));
    const offSite = Math.round(Math.exp(7 + 2 * rng.normal()));
    set('TRI_ON_SITE_RELEASES', onSite);
    set('TRI_OFF_SITE_TRANSFERS', offSite);
    set('TRI_RELEASES_TRANSFERS', onSite + offSite);
    set('TRI_REPORTER_IN_PAST', 'Y');
  }
  if (f.programs.includes('GHG')) {
    set('GHG_IDS', `99${id.slice(-5)}`);
    set('GHG_CO2_RELEASES', (Math.exp(11 + 1.5 * rng.normal())).toFixed(1));
  }
  // federal cases: a large penalty in the window, or an older one (its case dated before the window)
  if (c.totalPenalties >= 100_000 || c.oldPenalty >= 100_000) {
    const recent = c.totalPenalties >= 100_000;
    set('FEC_CASE_IDS', `99-${id}`);
    set('FEC_NUMBER_OF_CASES', 1);
    set('FEC_LAST_CASE_DATE', mdy(asOfMs, recent ? c.daysLastFormal : c.daysOldPenalty));
    set('FEC_TOTAL_PENALTIES', recent ? c.totalPenalties : c.oldPenalty);
  }
}
