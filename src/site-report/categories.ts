import type { HeldFields, SiteFacts } from './facts';
import { ON_SITE_MILES } from './compass';

/** The categories a request's `search_distances` may set: `on_site` is not a distance (inside the boundary, or within ON_SITE_MILES of a point). */
export const DISTANCE_KEYS = ['adjoining', 'snc', 'enforcement', 'rcra_tsd', 'rcra_generator', 'tri', 'npdes', 'caa_major'] as const;

/** The record categories a site report searches, in report order. */
export const CATEGORY_KEYS = ['on_site', 'adjoining', 'snc', 'enforcement', 'rcra_tsd', 'rcra_generator', 'tri', 'npdes', 'caa_major'] as const;
export type CategoryKey = (typeof CATEGORY_KEYS)[number];

/** Largest search distance a caller may ask for, in miles (every ASTM federal distance is at most 1). */
export const MAX_SEARCH_MILES = 2;

/**
 * How a category is searched on this index:
 * - `searched`: the index holds the ECHO field that decides it;
 * - `broadened`: it does not, so every facility of the wider ECHO program is listed (a screening
 *   lists too much rather than too little; the report says so);
 * - `not_searched`: nothing stored can stand in for it; the report lists it under "not searched".
 */
export type Coverage = 'searched' | 'broadened' | 'not_searched';

export type CategoryRule = {
  key: CategoryKey;
  label: string;
  /** Default search distance, miles. */
  miles: number;
  /** Where the distance comes from (ASTM E1527-21's record type, or this service's screen). */
  basis: string;
  /** The ECHO exporter columns the category reads (docs/site-report.md). */
  columns: string[];
  /** Whether the index holds what decides it exactly; absent: always. */
  held?: (h: HeldFields) => boolean;
  /** True when the facility belongs under the category, with the exact field. */
  exact: (f: SiteFacts) => boolean;
  /** The wider test used when the exact field is not held; absent: the category is then not searched. */
  broad?: (f: SiteFacts) => boolean;
  /** What a `broadened` search lists, in one sentence. */
  broadNote?: string;
};

export const CATEGORIES: readonly CategoryRule[] = [
  {
    key: 'on_site', label: 'On the property', miles: ON_SITE_MILES,
    basis: 'ASTM E1527-21 subject property: every ECHO facility inside the boundary (a point site: within 0.02 mi of it)',
    columns: ['REGISTRY_ID', 'FAC_LAT', 'FAC_LONG'],
    exact: () => true,
  },
  {
    key: 'adjoining', label: 'Adjoining and nearby facilities (off the property)', miles: 0.25,
    basis: 'ASTM E1527-21 adjoining properties: every ECHO facility off the property, whatever its record, measured from the boundary',
    columns: ['REGISTRY_ID', 'FAC_LAT', 'FAC_LONG'],
    exact: () => true,
  },
  {
    key: 'snc', label: 'In significant non-compliance now (SNC / HPV)', miles: 1.0,
    basis: 'Screen of this service: significant non-compliance is where releases are most likely',
    columns: ['FAC_COMPLIANCE_STATUS', 'FAC_PROGRAMS_WITH_SNC', 'FAC_SNC_FLG', 'FAC_3YR_COMPLIANCE_HISTORY', 'CAA_HPV_FLAG', 'CWA_SNC_FLAG', 'RCRA_SNC_FLAG', 'SDWA_SNC_FLAG'],
    exact: (f) => f.significant,
  },
  {
    key: 'enforcement', label: 'Formal enforcement action in the last 5 years', miles: 0.5,
    basis: 'Screen of this service: ECHO\'s 5-year enforcement window',
    columns: ['FAC_FORMAL_ACTION_COUNT', 'FAC_DATE_LAST_FORMAL_ACTION', 'FEC_NUMBER_OF_CASES', 'FEC_LAST_CASE_DATE', 'CAA_FORMAL_ACTION_COUNT', 'CWA_FORMAL_ACTION_COUNT', 'RCRA_FORMAL_ACTION_COUNT', 'SDWA_FORMAL_ACTION_COUNT', '<PGM>_DATE_LAST_FORMAL_ACTION'],
    exact: (f) => f.formalActionInWindow,
  },
  {
    key: 'rcra_tsd', label: 'RCRA treatment, storage and disposal facilities', miles: 1.0,
    basis: 'ASTM E1527-21 federal RCRA TSD list (CORRACTS TSD 1.0 mi, other TSD 0.5 mi; ECHO does not say which, so 1.0)',
    columns: ['RCRA_PERMIT_TYPES', 'RCRA_FLAG'],
    held: (h) => h.rcraUniverses,
    exact: (f) => f.rcraTsd,
    broad: (f) => f.programs.rcra,
    broadNote: 'RCRA_PERMIT_TYPES is not in this index: every RCRA-regulated facility (RCRA_FLAG) is listed, whatever its universe',
  },
  {
    key: 'rcra_generator', label: 'RCRA hazardous waste generators', miles: 0.25,
    basis: 'ASTM E1527-21 federal RCRA generators list (property and adjoining properties)',
    columns: ['RCRA_PERMIT_TYPES', 'RCRA_FLAG'],
    held: (h) => h.rcraUniverses,
    exact: (f) => f.rcraGenerator,
    broad: (f) => f.programs.rcra,
    broadNote: 'RCRA_PERMIT_TYPES is not in this index: every RCRA-regulated facility (RCRA_FLAG) is listed, whatever its universe',
  },
  {
    key: 'tri', label: 'Toxics Release Inventory reporters', miles: 1.0,
    basis: 'Screen of this service: facilities reporting toxic releases',
    columns: ['TRI_FLAG'],
    held: (h) => h.tri,
    exact: (f) => f.tri,
  },
  {
    key: 'npdes', label: 'Clean Water Act (NPDES) dischargers', miles: 0.5,
    basis: 'Screen of this service: permitted discharges to water',
    columns: ['NPDES_FLAG', 'CWA_COMPLIANCE_STATUS'],
    exact: (f) => f.programs.cwa,
  },
  {
    key: 'caa_major', label: 'Clean Air Act major sources', miles: 0.5,
    basis: 'Screen of this service: major air emission sources',
    columns: ['CAA_PERMIT_TYPES', 'AIR_FLAG'],
    held: (h) => h.caaMajor,
    exact: (f) => f.caaMajor,
    broad: (f) => f.programs.caa,
    broadNote: 'CAA_PERMIT_TYPES is not in this index: every Clean Air Act facility (AIR_FLAG) is listed, major or not',
  },
];

/** How `rule` is searched when the index holds `held`. */
export function coverageOf(rule: CategoryRule, held: HeldFields): Coverage {
  if (!rule.held || rule.held(held)) return 'searched';
  return rule.broad ? 'broadened' : 'not_searched';
}

/** The test a facility is put to for `rule` on this index, or null when the category is not searched. */
export function testOf(rule: CategoryRule, held: HeldFields): ((f: SiteFacts) => boolean) | null {
  const coverage = coverageOf(rule, held);
  return coverage === 'searched' ? rule.exact : coverage === 'broadened' ? rule.broad! : null;
}

/** The default search distances, by category. */
export function defaultDistances(): Record<CategoryKey, number> {
  return Object.fromEntries(CATEGORIES.map((c) => [c.key, c.miles])) as Record<CategoryKey, number>;
}
