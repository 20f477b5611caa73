import { t, type Static } from '../shared/typebox';

const Text = t.Union([t.String(), t.Null()]);
const Date = t.Union([t.String({ format: 'date' }), t.Null()]);
const Amount = t.Union([t.Number({ minimum: 0 }), t.Null()]);
const Codes = t.Union([t.Array(t.String()), t.Null()]);

/**
 * The ECHO exporter fields stored beside the score, not read by it: what the site report's categories
 * and a lookup's `evidence` show. Null: the source has no such column ("not reported"); a column the
 * source has but left blank is '' / [] / false, or null for an amount or a date (nothing reported).
 */
export const Evidence = t.Object({
  /** RCRA_PERMIT_TYPES as codes (TSDF, LQG, SQG, CESQG, VSQG, Transporter...), upper-cased, each once. */
  rcra_universes: Codes,
  /** CAA_PERMIT_TYPES as published (a major source says "Major"). */
  caa_permit_types: Text,
  /** TRI_FLAG is Y: the facility reports to the Toxics Release Inventory. */
  tri_flag: t.Union([t.Boolean(), t.Null()]),
  /** TRI_ON_SITE_RELEASES, TRI_RELEASES_TRANSFERS: pounds, latest reporting year. */
  tri_on_site_releases_lbs: Amount,
  tri_releases_transfers_lbs: Amount,
  /** GHG_CO2_RELEASES: metric tons of CO2 equivalent reported to the Greenhouse Gas Reporting Program. */
  ghg_co2_tonnes: Amount,
  /** Per-program quarter histories, oldest first (`_` `V` `S` `U`): CAA_3YR_COMPL_QTRS_HISTORY, CWA_13QTRS_COMPL_HISTORY, RCRA_3YR_COMPL_QTRS_HISTORY. */
  caa_history: Text,
  cwa_history: Text,
  rcra_history: Text,
  /** FEC_CASE_IDS: federal enforcement case numbers, each once, in file order. */
  fec_case_ids: Codes,
  /** AIR_IDS, NPDES_IDS, RCRA_IDS, SDWA_IDS, TRI_IDS: the program system IDs a reader pulls a program's file by, each once, in file order. */
  air_ids: Codes,
  npdes_ids: Codes,
  rcra_ids: Codes,
  sdwa_ids: Codes,
  tri_ids: Codes,
  /** FAC_DATE_LAST_INSPECTION_EPA / _STATE, FAC_DATE_LAST_FORMAL_ACT_EPA / _ST, FAC_DATE_LAST_INFORMAL_ACT_EPA / _ST. */
  last_inspection_epa: Date,
  last_inspection_state: Date,
  last_formal_action_epa: Date,
  last_formal_action_state: Date,
  last_informal_action_epa: Date,
  last_informal_action_state: Date,
});
export type Evidence = Static<typeof Evidence>;
export type EvidenceKey = keyof Evidence;
export const EVIDENCE_KEYS = Object.keys(Evidence.properties) as EvidenceKey[];

/** What a reported-but-empty cell reads as, per key (./evidence.ts header). */
function emptyOf(key: EvidenceKey): Evidence[EvidenceKey] {
  const kind = Evidence.properties[key].anyOf[0];
  if ('type' in kind && kind.type === 'array') return [];
  if ('type' in kind && kind.type === 'boolean') return false;
  if ('type' in kind && kind.type === 'string' && !('format' in kind)) return '';
  return null;
}

/**
 * facility.evidence: only the keys whose value differs from the empty one, as JSON; '' when
 * none does (no row is written). Most facilities have no TRI, GHG or federal case, so the empty keys
 * are left to `evidence_reported` instead of repeated in every row.
 */
export function storedEvidenceJson(e: Evidence): string {
  const out: Record<string, unknown> = {};
  let any = false;
  for (const k of EVIDENCE_KEYS) {
    const v = e[k];
    if (v === null || v === '' || v === false || (Array.isArray(v) && v.length === 0)) continue;
    out[k] = v;
    any = true;
  }
  return any ? JSON.stringify(out) : '';
}

/** The evidence of a stored text (or of no row: null), given the keys every source reported (index_meta `evidence_reported`). */
export function evidenceOfStored(text: string | null, reported: ReadonlySet<string>): Evidence {
  const stored = text ? (JSON.parse(text) as Partial<Evidence>) : {};
  const out = {} as Record<EvidenceKey, unknown>;
  for (const k of EVIDENCE_KEYS) out[k] = k in stored ? stored[k] : reported.has(k) ? emptyOf(k) : null;
  return out as Evidence;
}

/**
 * RCRA_PERMIT_TYPES as universe codes: ECHO writes codes (`TSDF`, `LQG`) or words (`Large Quantity
 * Generator`), several to a cell; each is recognised in either form, anything else is dropped.
 */
const RCRA_UNIVERSES: readonly [string, RegExp][] = [
  ['TSDF', /\bTSDF?\b|TREATMENT|STORAGE|DISPOS/i],
  ['LQG', /\bLQG\b|LARGE QUANTITY/i],
  ['SQG', /\bSQG\b|(?<!VERY )SMALL QUANTITY/i],
  ['CESQG', /\bCESQG\b|CONDITIONALLY EXEMPT/i],
  ['VSQG', /\bVSQG\b|VERY SMALL QUANTITY/i],
  ['TRANSPORTER', /TRANSPORT/i],
];
export const RCRA_GENERATORS: readonly string[] = ['LQG', 'SQG', 'CESQG', 'VSQG'];

export function rcraUniversesOf(cell: string): string[] {
  return cell === '' ? [] : RCRA_UNIVERSES.filter(([, re]) => re.test(cell)).map(([code]) => code);
}

/** A major source per CAA_PERMIT_TYPES ("Major", not "Synthetic Minor"); null when not reported. */
export function caaMajorOf(e: Evidence): boolean | null {
  return e.caa_permit_types === null ? null : /\bmajor\b/i.test(e.caa_permit_types);
}

/** The latest of two optional ISO dates (ISO dates compare as strings). */
function later(a: string | null, b: string | null): string | null {
  return a === null ? b : b === null || a >= b ? a : b;
}

type ActionDates = Pick<Evidence, 'last_formal_action_epa' | 'last_informal_action_epa' | 'last_formal_action_state' | 'last_informal_action_state'>;

/** Who acted last, EPA or the state, from ECHO's per-agency last formal / informal action dates. */
export function latestActionOf(e: ActionDates): { by: 'EPA' | 'state' | null; date: string | null } {
  const epa = later(e.last_formal_action_epa, e.last_informal_action_epa);
  const state = later(e.last_formal_action_state, e.last_informal_action_state);
  if (epa === null && state === null) return { by: null, date: null };
  return epa !== null && (state === null || epa >= state) ? { by: 'EPA', date: epa } : { by: 'state', date: state };
}
