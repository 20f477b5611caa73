import type { FacilityIndex } from '../index/facility-index';
import { caaMajorOf, type Evidence } from '../index/evidence';
import { factsOf } from '../scoring/facts';
import type { ScoreInputs } from '../scoring/model';

/** What the categories ask of one facility (./categories.ts). */
export type SiteFacts = {
  /** In significant non-compliance / HPV now, as the score model reads it (scoring/facts.ts `currentStatus`). */
  significant: boolean;
  /** A formal enforcement action (facility, program or federal case) in ECHO's 5-year window before the as-of date. */
  formalActionInWindow: boolean;
  /** ECHO program membership (AIR_FLAG, NPDES_FLAG, RCRA_FLAG, SDWIS_FLAG). */
  programs: { caa: boolean; cwa: boolean; rcra: boolean; sdwa: boolean };
  /** RCRA_PERMIT_TYPES codes; null: the index does not hold them. */
  rcraUniverses: string[] | null;
  /** TRI_FLAG; null: the index does not hold it. */
  tri: boolean | null;
  /** A major source per CAA_PERMIT_TYPES; null: the index does not hold it. */
  caaMajor: boolean | null;
};

/** Which of the finer ECHO fields the index holds. */
export type HeldFields = { rcraUniverses: boolean; tri: boolean; caaMajor: boolean };

/**
 * The finer ECHO fields the index holds: RCRA_PERMIT_TYPES, TRI_FLAG and CAA_PERMIT_TYPES are stored
 * (src/index/evidence.ts) when every source had the column (index_meta `evidence_reported`: an ECHO
 * exporter file does, a facility-search download does not). A category whose field is not held is
 * broadened to its program or not searched (./categories.ts).
 */
export function heldFields(index: FacilityIndex): HeldFields {
  const r = index.evidenceReported;
  return { rcraUniverses: r.has('rcra_universes'), tri: r.has('tri_flag'), caaMajor: r.has('caa_permit_types') };
}

/** Program names as reports print them, in the order of ScoreInputs.programs. */
export const PROGRAM_LABELS = { caa: 'CAA', cwa: 'CWA', rcra: 'RCRA', sdwa: 'SDWA' } as const;

/**
 * The facts of one facility at the dataset's as-of date. A formal action counts when it is dated in
 * the window, or undated but counted by a 5-year column (FAC_FORMAL_ACTION_COUNT and the program
 * counts cover the last 5 years).
 */
export function siteFactsOf(inputs: ScoreInputs, evidence: Evidence, asOf: string): SiteFacts {
  const f = factsOf(inputs, asOf);
  // the score model's own reading: a formal action or federal case dated in the window, or undated but
  // counted by a 5-year column (the same facts as active_enforcement)
  const formalActionInWindow = f.formalActions > 0;
  const p = inputs.programs;
  return {
    significant: f.currentStatus === 'significant',
    formalActionInWindow,
    programs: { caa: p.caa !== null, cwa: p.cwa !== null, rcra: p.rcra !== null, sdwa: p.sdwa !== null },
    rcraUniverses: evidence.rcra_universes,
    tri: evidence.tri_flag,
    caaMajor: caaMajorOf(evidence),
  };
}

/** `['CAA', 'RCRA']`: the ECHO programs the facility is in. */
export function programList(f: SiteFacts): string[] {
  return (Object.keys(PROGRAM_LABELS) as (keyof typeof PROGRAM_LABELS)[]).filter((k) => f.programs[k]).map((k) => PROGRAM_LABELS[k]);
}
