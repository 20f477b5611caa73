import type { ProgramInputs, ProgramsInputs } from '../scoring/model';
import { PROGRAMS } from '../scoring/model';
import { namesSignificant } from '../scoring/status';
import { amount, cell, count, upper } from './cells';
import type { HeaderInfo } from './columns';
import type { ProgramColumnMap } from './program-columns';
import { Bad, parseDate } from './values';
import type { RecordCells } from './record-cells';

/** A program's history: CWA's holds 13 quarters, the others 12. */
const PROGRAM_HISTORY = /^[_VSU]{0,13}$/;
const NOT_IN_PROGRAM = /^not applicable/i;

/**
 * One program's record, or null when the facility is not in it: the program flag (AIR_FLAG, ...) says
 * so when the file has it; without it (facility-search), a status other than blank / 'Not Applicable'.
 */
function programOf(f: RecordCells, c: ProgramColumnMap): ProgramInputs | null | Bad {
  const status = cell(f, c.status);
  if (c.flag >= 0 ? upper(cell(f, c.flag)) !== 'Y' : status === '' || NOT_IN_PROGRAM.test(status)) return null;
  const qtrs = count(f, c.qtrs_with_nc, 'program qtrs_with_nc', 13);
  if (qtrs instanceof Bad) return qtrs;
  const formal = count(f, c.formal_actions, 'program formal_action_count');
  if (formal instanceof Bad) return formal;
  const informal = count(f, c.informal_actions, 'program informal_count');
  if (informal instanceof Bad) return informal;
  const penalties = amount(f, c.penalties_usd, 'program penalties');
  if (penalties instanceof Bad) return penalties;
  const lastUsd = amount(f, c.last_penalty_usd, 'program last_penalty_amt');
  if (lastUsd instanceof Bad) return lastUsd;
  const lastPenalty = parseDate(cell(f, c.last_penalty_date), 'program last_penalty_date');
  if (lastPenalty instanceof Bad) return lastPenalty;
  const lastFormal = parseDate(cell(f, c.last_formal_action_date), 'program date_last_formal_action');
  if (lastFormal instanceof Bad) return lastFormal;
  const history = upper(cell(f, c.history));
  if (!PROGRAM_HISTORY.test(history)) return new Bad(`program compliance history "${history}" is not up to 13 of _ V S U`);
  // a number (real-data loads type it numeric): blank is 0 exceedances
  const effluent = c.effluent_exceedances < 0 ? null : count(f, c.effluent_exceedances, 'cwa effluent exceedances');
  if (effluent instanceof Bad) return effluent;
  const flag = upper(cell(f, c.significant));
  const record: ProgramInputs = {
    status: c.status < 0 || status === '' ? null : status,
    // a status naming SNC (or the Clean Air Act's "High Priority Violation") is significant, with or without a flag column
    significant: c.significant < 0 && c.status < 0 ? null : flag === 'Y' || namesSignificant(status),
    qtrs_with_nc: qtrs,
    formal_actions: formal,
    informal_actions: informal,
    penalties_usd: penalties,
    last_penalty_usd: lastUsd,
    last_penalty_date: lastPenalty,
    last_formal_action_date: lastFormal,
    history: c.history < 0 ? null : history,
    qncr_codes: c.qncr_codes < 0 ? null : upper(cell(f, c.qncr_codes)),
  };
  // only a program with the column has the key (set last, no object spread per record)
  if (effluent !== null) record.effluent_exceedances = effluent;
  return record;
}

export function programsOf(f: RecordCells, columns: HeaderInfo['programs']): ProgramsInputs | Bad {
  const out = { caa: null, cwa: null, rcra: null, sdwa: null } as ProgramsInputs;
  for (const p of PROGRAMS) {
    const c = columns[p];
    if (c === null) continue;
    const r = programOf(f, c);
    if (r instanceof Bad) return r;
    out[p] = r;
  }
  return out;
}
