import type { Program } from '../scoring/model';

/**
 * Where each ECHO program's own columns are (CAA_*, CWA_*, RCRA_*, SDWA_*), by normalised header name
 * (columns.ts normalizeName). The exporter has them all except SDWA's penalties and dates; a
 * facility-search download has only `<PGM>ComplianceStatus`. -1: the file has no such column.
 */
export type ProgramColumnMap = {
  /** AIR_FLAG, NPDES_FLAG, RCRA_FLAG, SDWIS_FLAG: 'Y' when the facility is in the program. */
  flag: number;
  status: number;
  significant: number;
  qtrs_with_nc: number;
  formal_actions: number;
  informal_actions: number;
  penalties_usd: number;
  last_penalty_usd: number;
  last_penalty_date: number;
  last_formal_action_date: number;
  /** <PGM>_3YR_COMPL_QTRS_HISTORY (12 quarters), CWA_13QTRS_COMPL_HISTORY (13). */
  history: number;
  /** CWA_3_YR_QNCR_CODES (CWA only). */
  qncr_codes: number;
  /** CWA_13QTRS_EFFLNT_EXCEEDANCES (CWA only). */
  effluent_exceedances: number;
};

const NAMES: Record<Program, Record<keyof ProgramColumnMap, string[]>> = {
  caa: {
    flag: ['airflag'], status: ['caacompliancestatus'], significant: ['caahpvflag'], qtrs_with_nc: ['caaqtrswithnc'],
    formal_actions: ['caaformalactioncount'], informal_actions: ['caainformalcount'], penalties_usd: ['caapenalties'],
    last_penalty_usd: ['caalastpenaltyamt'], last_penalty_date: ['caalastpenaltydate'], last_formal_action_date: ['caadatelastformalaction'],
    history: ['caa3yrcomplqtrshistory'], qncr_codes: [], effluent_exceedances: [],
  },
  cwa: {
    flag: ['npdesflag'], status: ['cwacompliancestatus'], significant: ['cwasncflag'], qtrs_with_nc: ['cwaqtrswithnc'],
    formal_actions: ['cwaformalactioncount'], informal_actions: ['cwainformalcount'], penalties_usd: ['cwapenalties'],
    last_penalty_usd: ['cwalastpenaltyamt'], last_penalty_date: ['cwalastpenaltydate'], last_formal_action_date: ['cwadatelastformalaction'],
    history: ['cwa13qtrscomplhistory'], qncr_codes: ['cwa3yrqncrcodes'], effluent_exceedances: ['cwa13qtrsefflntexceedances'],
  },
  rcra: {
    flag: ['rcraflag'], status: ['rcracompliancestatus'], significant: ['rcrasncflag'], qtrs_with_nc: ['rcraqtrswithnc'],
    formal_actions: ['rcraformalactioncount'], informal_actions: ['rcrainformalcount'], penalties_usd: ['rcrapenalties'],
    last_penalty_usd: ['rcralastpenaltyamt'], last_penalty_date: ['rcralastpenaltydate'], last_formal_action_date: ['rcradatelastformalaction'],
    history: ['rcra3yrcomplqtrshistory'], qncr_codes: [], effluent_exceedances: [],
  },
  sdwa: {
    flag: ['sdwisflag'], status: ['sdwacompliancestatus'], significant: ['sdwasncflag'], qtrs_with_nc: ['sdwaqtrswithnc'],
    formal_actions: ['sdwaformalactioncount'], informal_actions: ['sdwainformalcount'], penalties_usd: ['sdwapenalties'],
    last_penalty_usd: ['sdwalastpenaltyamt'], last_penalty_date: ['sdwalastpenaltydate'], last_formal_action_date: ['sdwadatelastformalaction'],
    history: [], qncr_codes: [], effluent_exceedances: [],
  },
};

/** Federal enforcement cases (FEC_*): counted as formal cases (in the 5-year window), their penalties as the facility's. */
const FEC_NAMES = { cases: ['fecnumberofcases'], penalties: ['fectotalpenalties'], last_date: ['feclastcasedate'], case_ids: ['feccaseids'] } as const;
export type FecColumnMap = Record<keyof typeof FEC_NAMES, number>;

const find = (position: Map<string, number>, names: readonly string[]) => names.map((n) => position.get(n)).find((p) => p !== undefined) ?? -1;

/** The program columns of a header, given its normalised-name -> position map; null for a program with no column at all. */
export function readProgramColumns(position: Map<string, number>): Record<Program, ProgramColumnMap | null> {
  const out = {} as Record<Program, ProgramColumnMap | null>;
  for (const [program, names] of Object.entries(NAMES) as [Program, Record<keyof ProgramColumnMap, string[]>][]) {
    const map = {} as ProgramColumnMap;
    for (const [k, n] of Object.entries(names) as [keyof ProgramColumnMap, string[]][]) map[k] = find(position, n);
    out[program] = Object.values(map).some((p) => p >= 0) ? map : null;
  }
  return out;
}

export function readFecColumns(position: Map<string, number>): FecColumnMap {
  return {
    cases: find(position, FEC_NAMES.cases), penalties: find(position, FEC_NAMES.penalties),
    last_date: find(position, FEC_NAMES.last_date), case_ids: find(position, FEC_NAMES.case_ids),
  };
}
