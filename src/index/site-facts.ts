import { hasEnoughData } from '../scoring/completeness';
import type { ScoreFacts } from '../scoring/facts';
import type { ScoreInputs } from '../scoring/model';
import { caaMajorOf, RCRA_GENERATORS, type Evidence } from './evidence';

/**
 * What a site report's record categories ask of one facility (src/site-report/categories.ts), and
 * whether its data is enough to judge it, as of the dataset's date. Derived at ingest from the same
 * facts as the score and kept as bits in the facility row (`site_facts`) and in the spatial index, so
 * a report tests the thousands of facilities around a dense site, and every list shows "Not enough
 * data", without reading their rows.
 */
export type SiteFacts = {
  /** In significant non-compliance / HPV now, as the score model reads it (scoring/facts.ts `currentStatus`). */
  significant: boolean;
  /** A formal enforcement action (facility, program or federal case) in ECHO's 5-year window: dated in it, or undated but counted by a 5-year column. */
  formalActionInWindow: boolean;
  /** ECHO program membership (AIR_FLAG, NPDES_FLAG, RCRA_FLAG, SDWIS_FLAG). */
  programs: { caa: boolean; cwa: boolean; rcra: boolean; sdwa: boolean };
  /** RCRA_PERMIT_TYPES names treatment, storage or disposal (false where the index does not hold the column). */
  rcraTsd: boolean;
  /** RCRA_PERMIT_TYPES names a generator universe: LQG, SQG, CESQG or VSQG (false where not held). */
  rcraGenerator: boolean;
  /** TRI_FLAG is Y (false where not held). */
  tri: boolean;
  /** A major source per CAA_PERMIT_TYPES (false where not held). */
  caaMajor: boolean;
  /** Not enough data to judge the facility: data_completeness.sufficient is false (src/scoring/completeness.ts). */
  insufficientData: boolean;
};

// One bit each; the order is part of the stored format (facility.site_facts and the area file).
const BITS = ['significant', 'formalActionInWindow', 'caa', 'cwa', 'rcra', 'sdwa', 'rcraTsd', 'rcraGenerator', 'tri', 'caaMajor', 'insufficientData'] as const;
const BIT = Object.fromEntries(BITS.map((k, i) => [k, 1 << i])) as Record<(typeof BITS)[number], number>;
/** Each fact's bit, for readers that test one without reading all back. */
export const SITE_BIT: Readonly<typeof BIT> = BIT;
/** How many values the bits can take: tables by bits are this long. */
export const SITE_FACT_VALUES = 1 << BITS.length;
/** The bits of the four programs. */
export const PROGRAM_BITS = BIT.caa | BIT.cwa | BIT.rcra | BIT.sdwa;

/**
 * The site facts, as bits, of a facility whose score facts at the dataset's as-of date are `facts`.
 * Bits straight away, with no object per row: ingest calls it for every facility.
 */
export function siteFactBitsOf(facts: ScoreFacts, programs: ScoreInputs['programs'], evidence: Evidence | null): number {
  let b = 0;
  if (facts.currentStatus === 'significant') b |= BIT.significant;
  // the score model's own reading, the same facts as active_enforcement
  if (facts.formalActions > 0) b |= BIT.formalActionInWindow;
  if (!hasEnoughData(facts)) b |= BIT.insufficientData;
  if (programs.caa !== null) b |= BIT.caa;
  if (programs.cwa !== null) b |= BIT.cwa;
  if (programs.rcra !== null) b |= BIT.rcra;
  if (programs.sdwa !== null) b |= BIT.sdwa;
  if (evidence === null) return b;
  const universes = evidence.rcra_universes;
  if (universes !== null && universes.length > 0) {
    if (universes.includes('TSDF')) b |= BIT.rcraTsd;
    if (universes.some((u) => RCRA_GENERATORS.includes(u))) b |= BIT.rcraGenerator;
  }
  if (evidence.tri_flag === true) b |= BIT.tri;
  if (caaMajorOf(evidence) === true) b |= BIT.caaMajor;
  return b;
}

/** siteFactBitsOf read back. */
export function siteFactsOfBits(b: number): SiteFacts {
  return {
    significant: (b & BIT.significant) !== 0,
    formalActionInWindow: (b & BIT.formalActionInWindow) !== 0,
    programs: { caa: (b & BIT.caa) !== 0, cwa: (b & BIT.cwa) !== 0, rcra: (b & BIT.rcra) !== 0, sdwa: (b & BIT.sdwa) !== 0 },
    rcraTsd: (b & BIT.rcraTsd) !== 0,
    rcraGenerator: (b & BIT.rcraGenerator) !== 0,
    tri: (b & BIT.tri) !== 0,
    caaMajor: (b & BIT.caaMajor) !== 0,
    insufficientData: (b & BIT.insufficientData) !== 0,
  };
}
