import { csvField, type CsvRecord } from '../../src/ingest/csv-records';
import { exporterLine } from './exporter-row';
import { makeFacility } from './generator';
import { DAY_MS, fromMdy, mdy, rowAsOf, toMs } from './echo-dates';
import { buildPlaces } from './geography';
import { Rng } from './rng';

export type EvolveOptions = {
  seed: string;
  /** YYYY-MM-DD of the previous file; default: read from its first row with a last inspection (date + days). */
  previousAsOf?: string;
  /** YYYY-MM-DD of the next release, later than previousAsOf; default: a week after it. */
  asOf?: string;
  /** Share of the previous file's facilities touched (0-1): edited, removed, or followed by a new one. */
  changeShare: number;
};

/** What the evolution did, by registry ID, in file order (docs/ingest.md "Evolving a release"). */
export type EvolveManifest = {
  previous_as_of: string;
  as_of: string;
  rows_in: number;
  rows_out: number;
  /** Facilities whose compliance record was edited (new penalty, violation, informal or formal action). */
  changed: string[];
  /** Of `changed`: a new formal action made a facility with no open enforcement active. */
  enforcement_started: string[];
  removed: string[];
  added: string[];
};

/** How a touched facility changes: shares of the touched ones. */
const KINDS = [['record', 0.5], ['enforcement', 0.2], ['removed', 0.15], ['added', 0.15]] as const;

/**
 * The next weekly release of an exporter file, record by record (header first): every day count moves
 * on by the days between the two as-of dates, the quarterly histories move on when the later date is
 * in a later quarter (nextQuarters), and a seeded `changeShare` of facilities changes (see
 * KINDS); the rest keep their record (their scores may still move as their events age). Deterministic
 * for a seed and input. `manifest` is filled as lines are produced.
 */
export async function* evolveLines(records: AsyncIterable<CsvRecord[]>, opts: EvolveOptions, manifest: EvolveManifest): AsyncGenerator<string> {
  let asOfMs = 0;
  Object.assign(manifest, { previous_as_of: '', as_of: '', rows_in: 0, rows_out: 0, changed: [], enforcement_started: [], removed: [], added: [] });
  let shift = 0;
  let quarters = 0;
  const setPreviousAsOf = (iso: string) => {
    manifest.previous_as_of = iso;
    asOfMs = opts.asOf ? toMs(opts.asOf) : toMs(iso) + 7 * DAY_MS;
    manifest.as_of = new Date(asOfMs).toISOString().slice(0, 10);
    shift = Math.round((asOfMs - toMs(iso)) / DAY_MS);
    quarters = quarterOf(asOfMs) - quarterOf(toMs(iso));
    if (!(shift > 0)) throw new Error(`--as-of ${manifest.as_of} must be after the previous file's as-of date ${iso}`);
  };
  if (opts.previousAsOf) setPreviousAsOf(opts.previousAsOf);
  const rng = new Rng(`facility-score evolve ${opts.seed}`);
  // additions draw from their own stream, so adding one does not change which others are touched
  const addRng = new Rng(`facility-score evolve additions ${opts.seed}`);
  const addExtra = new Rng(`facility-score evolve additions details ${opts.seed}`);
  const places = buildPlaces();
  let col: Record<string, number> = {};
  let dayColumns: number[] = [];
  let held: string[] | null = null; // one record of lookahead: an addition takes the ID after its row if free
  let addAfterHeld = false;

  const line = (f: string[]) => f.map(csvField).join(',');
  function* release(nextId: string | null): Generator<string> {
    if (!held) return;
    manifest.rows_out++;
    yield line(held);
    const newId = String(Number(held[col.REGISTRY_ID!]) + 1);
    if (addAfterHeld && newId !== nextId) {
      manifest.added.push(newId);
      manifest.rows_out++;
      yield exporterLine(makeFacility(addRng, places, newId, 0, addExtra), asOfMs, addRng, addExtra);
    }
    held = null;
  }

  // records wait here until the previous as-of date is known (read from the first row that has it)
  const waiting: string[][] = [];
  for await (const batch of records) for (const rec of batch) {
    const f = rec.fields;
    if (rec.line === 1) {
      col = Object.fromEntries(f.map((name, i) => [name, i]));
      dayColumns = f.flatMap((name, i) => (/_DAYS_LAST_/.test(name) ? [i] : []));
      yield line(f);
      continue;
    }
    if (f.every((v) => v === '')) continue;
    if (shift === 0) {
      waiting.push(f);
      const asOf = rowAsOf(f, col);
      if (asOf === null) continue;
      setPreviousAsOf(asOf);
      for (const w of waiting.splice(0)) yield* evolveOne(w);
      continue;
    }
    yield* evolveOne(f);
  }
  if (shift === 0) throw new Error('the previous file has no row with a last-inspection date and day count: pass its as-of date');
  yield* release(null);

  function* evolveOne(f: string[]): Generator<string> {
    manifest.rows_in++;
    const id = f[col.REGISTRY_ID!]!;
    yield* release(id);
    for (const i of dayColumns) if (/^\d+$/.test(f[i]!)) f[i] = String(Number(f[i]) + shift);
    if (quarters > 0) nextQuarters(f, col, quarters);
    addAfterHeld = false;
    // rows ingest rejects (no coordinates) are never touched, so every change shows in the index
    if (rng.chance(opts.changeShare) && f[col.FAC_LAT!] !== '') {
      const kind = rng.weighted(KINDS);
      if (kind === 'removed') {
        manifest.removed.push(id);
        return;
      }
      if (kind === 'added') addAfterHeld = true;
      else {
        const started = kind === 'enforcement' && startEnforcement(f, col, asOfMs, rng);
        if (!started) editRecord(f, col, asOfMs, rng);
        manifest.changed.push(id);
        if (started) manifest.enforcement_started.push(id);
      }
    }
    held = f;
  }
}

const quarterOf = (ms: number) => new Date(ms).getUTCFullYear() * 4 + Math.floor(new Date(ms).getUTCMonth() / 3);
const violationQuarters = (h: string) => [...h].filter((q) => q === 'V' || q === 'S').length;
/** The quarterly history columns and the quarters-in-violation count each one holds. */
const HISTORIES = [
  ['FAC_3YR_COMPLIANCE_HISTORY', 'FAC_QTRS_WITH_NC'],
  ['CAA_3YR_COMPL_QTRS_HISTORY', 'CAA_QTRS_WITH_NC'],
  ['RCRA_3YR_COMPL_QTRS_HISTORY', 'RCRA_QTRS_WITH_NC'],
  ['CWA_13QTRS_COMPL_HISTORY', 'CWA_QTRS_WITH_NC'],
] as const;

/**
 * A release in a later quarter: ECHO's quarterly histories end at the as-of date's quarter, so each
 * drops its oldest `q` quarters and gains `q` new ones. A new quarter keeps the latest one's letter:
 * the record goes on as it stands (the status, SNC flags and programs in SNC stay true), and this
 * week's edits (editRecord) then change it as they would. The quarters-in-violation counts, the CWA
 * exceedances and the QNCR codes follow the shifted histories.
 */
function nextQuarters(f: string[], col: Record<string, number>, q: number): void {
  const cwaBefore = f[col.CWA_13QTRS_COMPL_HISTORY!] ?? '';
  for (const [h, n] of HISTORIES) {
    const history = f[col[h]!] ?? '';
    if (history === '') continue;
    const shifted = (history + history.at(-1)!.repeat(q)).slice(-history.length);
    f[col[h]!] = shifted;
    if (f[col[n]!] !== '') f[col[n]!] = String(violationQuarters(shifted));
  }
  const cwaAfter = f[col.CWA_13QTRS_COMPL_HISTORY!] ?? '';
  const exceedances = count(f[col.CWA_13QTRS_EFFLNT_EXCEEDANCES!]);
  if (exceedances > 0 && violationQuarters(cwaBefore) > 0) {
    f[col.CWA_13QTRS_EFFLNT_EXCEEDANCES!] = String(violationQuarters(cwaAfter) * Math.round(exceedances / violationQuarters(cwaBefore)));
  }
  const codes = f[col.CWA_3_YR_QNCR_CODES!] ?? '';
  if (codes.length > 0) f[col.CWA_3_YR_QNCR_CODES!] = (codes + codes.at(-1)!.repeat(q)).slice(-codes.length);
}

const recent = (asOfMs: number, rng: Rng) => mdy(asOfMs - rng.int(1, 6) * DAY_MS);
const count = (s: string | undefined) => (s && /^\d+$/.test(s) ? Number(s) : 0);

/** Days in the 5-year enforcement window (60 months of 30.4375 days, as the score measures it). */
const WINDOW_DAYS = 1826;

/**
 * A new formal action this week, on a facility with none open: no formal action or federal case in the
 * 5-year window (score method fcs-3.0 takes any such action as open, none known closed).
 */
function startEnforcement(f: string[], col: Record<string, number>, asOfMs: number, rng: Rng): boolean {
  const inWindow = (d: string | undefined) => {
    const ms = fromMdy(d ?? '');
    return ms !== null && asOfMs - ms <= WINDOW_DAYS * DAY_MS;
  };
  const programCounts = ['CAA', 'CWA', 'RCRA', 'SDWA'].map((p) => count(f[col[`${p}_FORMAL_ACTION_COUNT`]!]));
  const open =
    count(f[col.FAC_FORMAL_ACTION_COUNT!]) > 0 || programCounts.some((n) => n > 0) || inWindow(f[col.FAC_DATE_LAST_FORMAL_ACTION!]) ||
    inWindow(f[col.FEC_LAST_CASE_DATE!]) || (f[col.FEC_CASE_IDS!] !== '' && f[col.FEC_LAST_CASE_DATE!] === '');
  if (open) return false;
  f[col.FAC_FORMAL_ACTION_COUNT!] = String(count(f[col.FAC_FORMAL_ACTION_COUNT!]) + 1);
  f[col.FAC_DATE_LAST_FORMAL_ACTION!] = recent(asOfMs, rng);
  return true;
}

/** One compliance event this week: a penalty, a newly identified violation, or an informal action. */
function editRecord(f: string[], col: Record<string, number>, asOfMs: number, rng: Rng): void {
  const what = rng.pick(['penalty', 'violation', 'informal'] as const);
  const status = f[col.FAC_COMPLIANCE_STATUS!]!;
  if (what === 'penalty') {
    const amount = Math.max(100, Math.round(Math.exp(Math.log(6000) + 1.5 * rng.normal())));
    f[col.FAC_PENALTY_COUNT!] = String(count(f[col.FAC_PENALTY_COUNT!]) + 1);
    f[col.FAC_TOTAL_PENALTIES!] = String(count(f[col.FAC_TOTAL_PENALTIES!]) + amount);
    f[col.FAC_LAST_PENALTY_AMT!] = String(amount);
    f[col.FAC_DATE_LAST_PENALTY!] = recent(asOfMs, rng);
  } else if (what === 'violation' && /^No Violation/i.test(status)) {
    f[col.FAC_COMPLIANCE_STATUS!] = 'Violation Identified';
    const history = f[col.FAC_3YR_COMPLIANCE_HISTORY!] || '____________';
    // the latest quarter (last character) now has a violation; quarters in violation agree with the history
    if (!/[VS]$/.test(history)) f[col.FAC_QTRS_WITH_NC!] = String(Math.min(12, count(f[col.FAC_QTRS_WITH_NC!]) + 1));
    f[col.FAC_3YR_COMPLIANCE_HISTORY!] = `${history.slice(0, 11)}V`;
  } else {
    f[col.FAC_INFORMAL_COUNT!] = String(count(f[col.FAC_INFORMAL_COUNT!]) + 1);
    f[col.FAC_DATE_LAST_INFORMAL_ACTION!] = recent(asOfMs, rng);
  }
}
