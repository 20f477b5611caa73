import { csvField, type CsvRecord } from '../../src/ingest/csv-records';
import { DAY_MS, fromMdy, mdy, rowAsOf, toMs } from './echo-dates';
import { exporterLine } from './exporter-row';
import { makeFacility } from './generator';
import { buildPlaces } from './geography';
import { Rng } from './rng';

export type RewindOptions = {
  seed: string;
  /** YYYY-MM-DD of the earlier file, before the one read. */
  asOf: string;
  /** YYYY-MM-DD of the file read; default: from its first row with a last inspection (date + days). */
  currentAsOf?: string;
};

/** What the rewind did, by registry ID, in file order. */
export type RewindSummary = {
  as_of: string;
  current_as_of: string;
  rows_in: number;
  rows_out: number;
  /** Facilities of the file read that the earlier file lacks: they arrive in the later release. */
  added_later: string[];
  /** Facilities only the earlier file has: they leave in the later release. */
  removed_later: string[];
};

/**
 * Names what rewindLines writes for a seed and input; the bundled sample records it and is rebuilt
 * when it changes: bump it with any change to the output.
 */
export const REWIND_VERSION = 'rewind-1';

/** Shares of the file's facilities left out of the earlier file, and of added facilities gone by the later one. */
const ADDED_LATER = 0.003;
const REMOVED_LATER = 0.002;
/** How far before the earlier as-of date an invented earlier event lies (days): within the 5-year window. */
const EARLIER_EVENT_DAYS = [30, 900] as const;

const count = (s: string | undefined) => (s && /^\d+$/.test(s) ? Number(s) : 0);
const violationQuarters = (h: string) => [...h].filter((q) => q === 'V' || q === 'S').length;
const quarterOf = (ms: number) => new Date(ms).getUTCFullYear() * 4 + Math.floor(new Date(ms).getUTCMonth() / 3);
/** A history (oldest first) as it read `prefix.length` quarters earlier: the older quarters in front, the newest ones not yet there. */
const earlierHistory = (h: string, prefix: string) => (prefix + h).slice(0, h.length);

/**
 * The exporter file as it was at an earlier as-of date, record by record (header first): the inverse
 * of time passing. Events dated after that date are not there yet (counts one lower, the latest date
 * an earlier one), day counts are smaller, the quarterly histories end at that date's quarter (so
 * the current status is that quarter's), and a few facilities are not there yet or are still there.
 * Read in order with --previous, the two files give the score changes of the time between them.
 * Deterministic for a seed and input; each facility's invented values come from its own stream.
 */
export async function* rewindLines(records: AsyncIterable<CsvRecord[]>, opts: RewindOptions, summary: RewindSummary): AsyncGenerator<string> {
  const t0 = toMs(opts.asOf);
  if (!Number.isFinite(t0)) throw new Error(`bad as-of date ${opts.asOf}`);
  Object.assign(summary, { as_of: opts.asOf, current_as_of: '', rows_in: 0, rows_out: 0, added_later: [], removed_later: [] });
  let t1 = 0;
  const setCurrent = (iso: string) => {
    t1 = toMs(iso);
    summary.current_as_of = iso;
    if (!(t1 > t0)) throw new Error(`--as-of ${opts.asOf} must be before the file's as-of date ${iso}`);
  };
  if (opts.currentAsOf) setCurrent(opts.currentAsOf);
  const gone = new Rng(`facility-score rewind removed ${opts.seed}`);
  const goneExtra = new Rng(`facility-score rewind removed details ${opts.seed}`);
  const places = buildPlaces();
  let col: Record<string, number> = {};
  let pendingGone: string | null = null; // a facility only the earlier file has, written before the next higher ID

  const line = (f: string[]) => f.map(csvField).join(',');
  function* flushGone(beforeId: string | null): Generator<string> {
    if (pendingGone !== null && (beforeId === null || BigInt(pendingGone) < BigInt(beforeId))) {
      summary.removed_later.push(pendingGone);
      summary.rows_out++;
      yield exporterLine(makeFacility(gone, places, pendingGone, 0, goneExtra), t0, gone, goneExtra);
    }
    pendingGone = null;
  }
  function* rewindOne(f: string[]): Generator<string> {
    summary.rows_in++;
    const id = f[col.REGISTRY_ID!]!;
    yield* flushGone(id);
    const rng = new Rng(`facility-score rewind ${opts.seed} ${id}`);
    if (rng.chance(ADDED_LATER)) summary.added_later.push(id);
    else {
      summary.rows_out++;
      yield line(rewindRecord(f, col, t0, t1, rng));
    }
    if (gone.chance(REMOVED_LATER)) pendingGone = String(BigInt(id) + 1n);
  }

  const waiting: string[][] = [];
  for await (const batch of records) for (const rec of batch) {
    const f = rec.fields;
    if (rec.line === 1) {
      col = Object.fromEntries(f.map((name, i) => [name, i]));
      yield line(f);
      continue;
    }
    if (f.every((v) => v === '')) continue;
    if (t1 === 0) {
      waiting.push(f);
      const asOf = rowAsOf(f, col);
      if (asOf === null) continue;
      setCurrent(asOf);
      for (const w of waiting.splice(0)) yield* rewindOne(w);
      continue;
    }
    yield* rewindOne(f);
  }
  if (t1 === 0) throw new Error('the file has no row with a last-inspection date and day count: pass its as-of date');
  yield* flushGone(null);
}

/** One record as it read at t0 (epoch ms), given the record at t1; `rng` invents what the later record no longer shows. */
function rewindRecord(f: string[], col: Readonly<Record<string, number>>, t0: number, t1: number, rng: Rng): string[] {
  const get = (name: string) => (col[name] === undefined ? '' : f[col[name]!]!);
  const set = (name: string, value: string) => {
    if (col[name] !== undefined) f[col[name]!] = value;
  };
  // zeros as the row writes them: `0`, or blank on rows that leave zeros blank
  const counts = ['FAC_INFORMAL_COUNT', 'FAC_FORMAL_ACTION_COUNT', 'FAC_PENALTY_COUNT', 'FAC_TOTAL_PENALTIES'].map(get);
  const zero = counts.includes('0') || !counts.includes('') ? '0' : '';
  const num = (n: number) => (n === 0 ? zero : String(n));
  const after = (d: string) => (fromMdy(d) ?? 0) > t0;
  const earlierDate = () => mdy(t0 - rng.int(...EARLIER_EVENT_DAYS) * DAY_MS);
  /** Every cell of `names` that reads `was` now reads `now`. */
  const replace = (names: readonly string[], was: string, now: string) => {
    for (const n of names) if (get(n) === was) set(n, now);
  };
  const PROGRAMS = ['CAA', 'CWA', 'RCRA'] as const;

  // inspections: the latest one after t0 had not happened; the one before is invented
  const inspected = get('FAC_DATE_LAST_INSPECTION');
  const days = get('FAC_DAYS_LAST_INSPECTION');
  let daysAtT0 = /^\d+$/.test(days) ? String(Number(days) - Math.round((t1 - t0) / DAY_MS)) : days;
  if (after(inspected)) {
    const n = Math.max(1, count(get('FAC_INSPECTION_COUNT'))) - 1;
    const date = n > 0 ? earlierDate() : '';
    daysAtT0 = n > 0 ? String(Math.round((t0 - fromMdy(date)!) / DAY_MS)) : '';
    for (const [countCol, daysCol] of [['CAA_EVALUATION_COUNT', 'CAA_DAYS_LAST_EVALUATION'], ['CWA_INSPECTION_COUNT', 'CWA_DAYS_LAST_INSPECTION'], ['RCRA_INSPECTION_COUNT', 'RCRA_DAYS_LAST_EVALUATION']] as const) {
      if (get(daysCol) === days) set(countCol, String(n)); // the lead program's own count
    }
    set('FAC_INSPECTION_COUNT', num(n));
    replace(['FAC_DATE_LAST_INSPECTION', 'FAC_DATE_LAST_INSPECTION_EPA', 'FAC_DATE_LAST_INSPECTION_STATE'], inspected, date);
  }
  for (const [name, i] of Object.entries(col)) {
    if (!/_DAYS_LAST_/.test(name) || !/^\d+$/.test(f[i]!)) continue;
    const shifted = Number(f[i]) - Math.round((t1 - t0) / DAY_MS);
    f[i] = f[i] === days ? daysAtT0 : shifted >= 0 ? String(shifted) : '';
  }

  // informal and formal actions: one fewer, the latest an earlier one (or none)
  for (const kind of ['informal', 'formal'] as const) {
    const countCol = kind === 'informal' ? 'FAC_INFORMAL_COUNT' : 'FAC_FORMAL_ACTION_COUNT';
    const dateCol = kind === 'informal' ? 'FAC_DATE_LAST_INFORMAL_ACTION' : 'FAC_DATE_LAST_FORMAL_ACTION';
    const date = get(dateCol);
    if (!after(date)) continue;
    const was = get(countCol);
    const n = Math.max(1, count(was)) - 1;
    const earlier = n > 0 ? earlierDate() : '';
    const programCounts = PROGRAMS.map((p) => (kind === 'informal' ? `${p}_INFORMAL_COUNT` : `${p}_FORMAL_ACTION_COUNT`));
    replace(programCounts, was, num(n));
    replace([kind === 'informal' ? 'SDWA_INFORMAL_COUNT' : 'SDWA_FORMAL_ACTION_COUNT'], was, String(n));
    set(countCol, num(n));
    const split = kind === 'informal' ? ['FAC_DATE_LAST_INFORMAL_ACT_EPA', 'FAC_DATE_LAST_INFORMAL_ACT_ST'] : ['FAC_DATE_LAST_FORMAL_ACT_EPA', 'FAC_DATE_LAST_FORMAL_ACT_ST'];
    const programDates = kind === 'formal' ? PROGRAMS.map((p) => `${p}_DATE_LAST_FORMAL_ACTION`) : [];
    replace([dateCol, ...split, ...programDates], date, earlier);
  }
  // a federal case opened after t0 was not there yet
  if (after(get('FEC_LAST_CASE_DATE'))) for (const c of ['FEC_CASE_IDS', 'FEC_NUMBER_OF_CASES', 'FEC_LAST_CASE_DATE', 'FEC_TOTAL_PENALTIES']) set(c, '');

  // penalties: the latest one had not been assessed; 5-year total and count without it
  const penaltyDate = get('FAC_DATE_LAST_PENALTY');
  if (after(penaltyDate)) {
    const [wasCount, wasTotal, wasLast] = [get('FAC_PENALTY_COUNT'), get('FAC_TOTAL_PENALTIES'), get('FAC_LAST_PENALTY_AMT')];
    const n = Math.max(1, count(wasCount)) - 1;
    const total = n > 0 ? Math.max(0, count(wasTotal) - count(wasLast)) : 0;
    const last = n === 0 ? 0 : n === 1 ? total : Math.max(100, Math.round(total / n));
    const earlier = n > 0 ? earlierDate() : '';
    set('FAC_PENALTY_COUNT', num(n));
    replace(['FAC_TOTAL_PENALTIES', ...PROGRAMS.map((p) => `${p}_PENALTIES`)], wasTotal, num(total));
    replace(['FAC_LAST_PENALTY_AMT', ...PROGRAMS.map((p) => `${p}_LAST_PENALTY_AMT`)], wasLast, num(last));
    replace(['FAC_DATE_LAST_PENALTY', ...PROGRAMS.map((p) => `${p}_LAST_PENALTY_DATE`)], penaltyDate, earlier);
  }

  rewindQuarters(get, set, Math.min(12, quarterOf(t1) - quarterOf(t0)), rng, num);
  return f;
}

/**
 * The quarterly histories end `q` quarters earlier: each quarter keeps its letter, the newest q are
 * not there yet and q older ones come in front (invented: a violation run at the oldest quarter may
 * reach further back; CWA's 13th quarter is the facility's next older one). The current status, SNC
 * flags and quarters in violation follow the new latest quarter, on the facility and on the programs
 * that carry its record (those whose history is the facility's).
 */
function rewindQuarters(get: (n: string) => string, set: (n: string, v: string) => void, q: number, rng: Rng, num: (n: number) => string): void {
  const hist = get('FAC_3YR_COMPLIANCE_HISTORY');
  if (q === 0 || hist.length !== 12 || get('FAC_COMPLIANCE_STATUS') === '') return;
  const older = (basis: string) => Array.from({ length: q }, () => (/[VS]/.test(basis[0]!) && rng.chance(0.5) ? 'V' : '_')).join('');
  const cwa = get('CWA_13QTRS_COMPL_HISTORY');
  const cwaCarries = cwa.length === 13 && cwa.slice(1) === hist;
  const cwaThen = cwa.length === 13 ? earlierHistory(cwa, cwaCarries ? older(cwa) : '_'.repeat(q)) : cwa;
  const histThen = cwaCarries ? cwaThen.slice(1) : earlierHistory(hist, older(hist));
  const latest = histThen[11];
  const snc = latest === 'S';
  const status = snc ? 'Significant Violation' : latest === 'V' ? 'Violation Identified' : 'No Violation Identified';
  const statusNow = get('FAC_COMPLIANCE_STATUS');

  let carried = false;
  for (const [h, qtrs, st, flag] of [
    ['CAA_3YR_COMPL_QTRS_HISTORY', 'CAA_QTRS_WITH_NC', 'CAA_COMPLIANCE_STATUS', 'CAA_HPV_FLAG'],
    ['RCRA_3YR_COMPL_QTRS_HISTORY', 'RCRA_QTRS_WITH_NC', 'RCRA_COMPLIANCE_STATUS', 'RCRA_SNC_FLAG'],
    ['CWA_13QTRS_COMPL_HISTORY', 'CWA_QTRS_WITH_NC', 'CWA_COMPLIANCE_STATUS', 'CWA_SNC_FLAG'],
  ] as const) {
    const own = get(h);
    if (own === '') continue;
    const carries = h.startsWith('CWA') ? cwaCarries : own === hist;
    const then = h.startsWith('CWA') ? cwaThen : carries ? histThen : earlierHistory(own, '_'.repeat(q));
    set(h, then);
    if (get(qtrs) !== '') set(qtrs, String(violationQuarters(then)));
    if (carries && /[VS]/.test(hist + histThen)) {
      carried = true;
      set(st, status);
      set(flag, snc ? 'Y' : 'N');
    }
  }
  // SDWA has no history column: it carries the record when its status is the facility's violation, or no other program does
  const violating = statusNow === 'Violation Identified' || statusNow === 'Significant Violation';
  const sdwaCarries = get('SDWIS_FLAG') === 'Y' && get('SDWA_COMPLIANCE_STATUS') === statusNow && (violating || (!carried && /[VS]/.test(hist + histThen)));
  if (sdwaCarries) {
    set('SDWA_COMPLIANCE_STATUS', status);
    set('SDWA_SNC_FLAG', snc ? 'Y' : 'N');
  }

  const exceedances = count(get('CWA_13QTRS_EFFLNT_EXCEEDANCES'));
  if (exceedances > 0 && violationQuarters(cwa) > 0) set('CWA_13QTRS_EFFLNT_EXCEEDANCES', String(violationQuarters(cwaThen) * Math.round(exceedances / violationQuarters(cwa))));
  const codes = get('CWA_3_YR_QNCR_CODES');
  if (codes.length === 13) set('CWA_3_YR_QNCR_CODES', earlierHistory(codes, [...cwaThen.slice(0, q)].map((c) => (c === 'V' || c === 'S' ? '1' : '_')).join('')));

  set('FAC_3YR_COMPLIANCE_HISTORY', histThen);
  set('FAC_QTRS_WITH_NC', num(violationQuarters(histThen)));
  set('FAC_COMPLIANCE_STATUS', status);
  if (!snc && count(get('FAC_PROGRAMS_WITH_SNC')) > 0) set('FAC_PROGRAMS_WITH_SNC', '0');
}
