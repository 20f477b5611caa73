import { EVIDENCE_KEYS, rcraUniversesOf, type Evidence, type EvidenceKey } from '../evidence';
import { Bad, parseAmount, parseDate } from './values';

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
 */
export function evidenceOf(f: string[], c: EvidenceColumnMap): Evidence {
  const text = (i: number) => (i < 0 ? null : (f[i] ?? '').trim());
  const amount = (i: number) => {
    const v = text(i);
    if (v === null || v === '') return null;
    const n = parseAmount(v, '');
    return n instanceof Bad ? null : n;
  };
  const date = (i: number) => {
    const v = text(i);
    const d = v === null ? null : parseDate(v, '');
    return d instanceof Bad ? null : d;
  };
  const history = (i: number) => {
    const v = text(i);
    return v === null ? null : HISTORY.test(v.toUpperCase()) ? v.toUpperCase() : null;
  };
  const rcra = text(c.rcra_universes), tri = text(c.tri_flag), cases = text(c.fec_case_ids);
  return {
    rcra_universes: rcra === null ? null : rcraUniversesOf(rcra),
    caa_permit_types: text(c.caa_permit_types),
    tri_flag: tri === null ? null : tri.toUpperCase() === 'Y',
    tri_on_site_releases_lbs: amount(c.tri_on_site_releases_lbs),
    tri_releases_transfers_lbs: amount(c.tri_releases_transfers_lbs),
    ghg_co2_tonnes: amount(c.ghg_co2_tonnes),
    caa_history: history(c.caa_history),
    cwa_history: history(c.cwa_history),
    rcra_history: history(c.rcra_history),
    fec_case_ids: cases === null ? null : [...new Set(cases.split(/[\s,;]+/).filter((x) => x !== ''))],
    last_inspection_epa: date(c.last_inspection_epa),
    last_inspection_state: date(c.last_inspection_state),
    last_formal_action_epa: date(c.last_formal_action_epa),
    last_formal_action_state: date(c.last_formal_action_state),
    last_informal_action_epa: date(c.last_informal_action_epa),
    last_informal_action_state: date(c.last_informal_action_state),
  };
}
