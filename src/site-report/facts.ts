import type { FacilityIndex } from '../index/facility-index';
import type { Evidence } from '../index/evidence';
import { siteFactBitsOf, siteFactsOfBits, type SiteFacts } from '../index/site-facts';
import { factsOf } from '../scoring/facts';
import type { ScoreInputs } from '../scoring/model';

export type { SiteFacts } from '../index/site-facts';

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
 * The site facts of a facility read in full (its inputs and evidence) at the dataset's as-of date:
 * what ingest stored as `site_facts` (src/index/site-facts.ts), derived again.
 */
export function siteFactsOfRecord(inputs: ScoreInputs, evidence: Evidence | null, asOf: string): SiteFacts {
  return siteFactsOfBits(siteFactBitsOf(factsOf(inputs, asOf), inputs.programs, evidence));
}

/** `['CAA', 'RCRA']`: the ECHO programs the facility is in. */
export function programList(f: SiteFacts): string[] {
  return (Object.keys(PROGRAM_LABELS) as (keyof typeof PROGRAM_LABELS)[]).filter((k) => f.programs[k]).map((k) => PROGRAM_LABELS[k]);
}
