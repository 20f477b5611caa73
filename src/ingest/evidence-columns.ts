import { EVIDENCE_KEYS, rcraUniversesOf, type Evidence, type EvidenceKey } from '../index/evidence';
import { cell, codesOf } from './cells';
import { Bad, parseAmount, parseDate } from './values';
import type { RecordCells } from './record-cells';

export type { Evidence };

/** Normalised header names of each evidence field (../evidence.ts), first match wins; a facility-search download has none. */
const NAMES: Record<EvidenceKey, string[]> = {
  rcra_universes: ['rcrapermittypes'],
  caa_permit_types: ['caapermittypes'],
  tri_flag: ['triflag'],
  tri_on_site_releases_lbs: ['trionsitereleases'],
  tri_releases_transfers_lbs: ['trireleasestransfers'],
  ghg_co2_tonnes: ['ghgco2releases'],
  caa_history: ['caa3yrcomplqtrshistory'],
  cwa_history: ['cwa13qtrscomplhistory'],
  rcra_history: ['rcra3yrcomplqtrshistory'],
  fec_case_ids: ['feccaseids'],
  air_ids: ['airids'],
  npdes_ids: ['npdesids'],
  rcra_ids: ['rcraids'],
  sdwa_ids: ['sdwaids'],
  tri_ids: ['triids'],
  last_inspection_epa: ['facdatelastinspectionepa'],
  last_inspection_state: ['facdatelastinspectionstate', 'facdatelastinspectionst'],
  last_formal_action_epa: ['facdatelastformalactepa'],
  last_formal_action_state: ['facdatelastformalactst', 'facdatelastformalactstate'],
  last_informal_action_epa: ['facdatelastinformalactepa'],
  last_informal_action_state: ['facdatelastinformalactst', 'facdatelastinformalactstate'],
};

/** Position of each evidence column in a record, or -1. */
export type EvidenceColumnMap = Record<EvidenceKey, number>;

export function readEvidenceColumns(position: Map<string, number>): EvidenceColumnMap {
  const out = {} as EvidenceColumnMap;
  for (const k of EVIDENCE_KEYS) out[k] = NAMES[k].map((n) => position.get(n)).find((p) => p !== undefined) ?? -1;
  return out;
}

/** The evidence keys a file reports (has a column for). */
export function evidenceReported(c: EvidenceColumnMap): EvidenceKey[] {
  return EVIDENCE_KEYS.filter((k) => c[k] >= 0);
}

const HISTORY = /^[_VSU]{0,13}$/;

/**
 * A row's evidence. Lenient by design: these fields are shown, never scored, so a value that cannot
 * be read is null (not reported) rather than a reason to leave a facility out of the index.
 * Runs for every row at ingest: module-level helpers taking `f`, no closures per row, and the few
 * distinct RCRA cells read once each (per-row closures and regexes were a visible cost).
 */
export function evidenceOf(f: RecordCells, c: EvidenceColumnMap): Evidence {
  const rcra = text(f, c.rcra_universes), tri = text(f, c.tri_flag), cases = text(f, c.fec_case_ids);
  return {
    rcra_universes: rcra === null ? null : rcraOf(rcra),
    caa_permit_types: text(f, c.caa_permit_types),
    tri_flag: tri === null ? null : tri === 'Y' || tri === 'y',
    tri_on_site_releases_lbs: amountOf(f, c.tri_on_site_releases_lbs),
    tri_releases_transfers_lbs: amountOf(f, c.tri_releases_transfers_lbs),
    ghg_co2_tonnes: amountOf(f, c.ghg_co2_tonnes),
    caa_history: historyOf(f, c.caa_history),
    cwa_history: historyOf(f, c.cwa_history),
    rcra_history: historyOf(f, c.rcra_history),
    fec_case_ids: cases === null ? null : codesOf(cases),
    air_ids: idsOf(f, c.air_ids),
    npdes_ids: idsOf(f, c.npdes_ids),
    rcra_ids: idsOf(f, c.rcra_ids),
    sdwa_ids: idsOf(f, c.sdwa_ids),
    tri_ids: idsOf(f, c.tri_ids),
    last_inspection_epa: dateOf(f, c.last_inspection_epa),
    last_inspection_state: dateOf(f, c.last_inspection_state),
    last_formal_action_epa: dateOf(f, c.last_formal_action_epa),
    last_formal_action_state: dateOf(f, c.last_formal_action_state),
    last_informal_action_epa: dateOf(f, c.last_informal_action_epa),
    last_informal_action_state: dateOf(f, c.last_informal_action_state),
  };
}

/** A program's IDs (AIR_IDS, ...), or null when the file has no such column. */
function idsOf(f: RecordCells, i: number): string[] | null {
  const v = text(f, i);
  return v === null ? null : codesOf(v);
}

/** Cell `i` trimmed (cells.ts cell), or null when the file has no such column. */
function text(f: RecordCells, i: number): string | null {
  return i < 0 ? null : cell(f, i);
}

function amountOf(f: RecordCells, i: number): number | null {
  if (i < 0) return null;
  const v = cell(f, i);
  if (v === '') return null;
  const n = parseAmount(v, '');
  return n instanceof Bad ? null : n;
}

function dateOf(f: RecordCells, i: number): string | null {
  if (i < 0) return null;
  const d = parseDate(cell(f, i), '');
  return d instanceof Bad ? null : d;
}

/** A quarter history upper-cased, or null when it is not up to 13 of `_` `V` `S` `U`. */
function historyOf(f: RecordCells, i: number): string | null {
  if (i < 0) return null;
  const v = cell(f, i);
  // nearly every cell is already upper-case quarters: checked without upper-casing or a regex
  if (v.length <= 13) {
    let plain = true;
    for (let k = 0; k < v.length && plain; k++) {
      const ch = v.charCodeAt(k);
      plain = ch === 95 || ch === 86 || ch === 83 || ch === 85; // _ V S U
    }
    if (plain) return v;
  }
  const u = v.toUpperCase();
  return HISTORY.test(u) ? u : null;
}

/**
 * rcraUniversesOf, once per distinct cell: a national file has a handful of RCRA_PERMIT_TYPES texts.
 * Bounded, so a file of odd cells cannot grow it; the arrays are shared between rows and never mutated
 * (they are only written as JSON).
 */
function rcraOf(v: string): string[] {
  let codes = RCRA_MEMO.get(v);
  if (codes === undefined) {
    codes = rcraUniversesOf(v);
    if (RCRA_MEMO.size < 1000) RCRA_MEMO.set(v, codes);
  }
  return codes;
}
const RCRA_MEMO = new Map<string, string[]>();
