import { t, type Static } from '../shared/typebox';
import { safeAmount, safeCount } from './counts';
import { inWindowOrUndated } from './events';
import { PROGRAMS, type ProgramInputs } from './model';
import { CWA_HISTORY_QUARTERS, HISTORY_QUARTERS, QNCR_RESOLVED_PENDING_CODES } from './rules';
import { statusOf, type CurrentStatus } from './status';

/** One program's record after sanitising, amounts limited to the 5-year window. */
export const ProgramFacts = t.Object({
  name: t.Union(PROGRAMS.map((p) => t.Literal(p))),
  status: t.Union([t.Literal('none'), t.Literal('violation'), t.Literal('significant')]),
  /** Quarters in violation the program reports: up to 13 for CWA (its window is 13 quarters), 12 for the others. */
  qtrs: t.Integer({ minimum: 0, maximum: CWA_HISTORY_QUARTERS }),
  /** Of those, the ones in the facility's 12-quarter window: CWA's oldest (13th) quarter is not in it. */
  qtrsIn12: t.Integer({ minimum: 0, maximum: HISTORY_QUARTERS }),
  /** Its quarterly history, upper-cased, whole (13 characters for CWA), oldest first; '' when none. */
  history: t.String(),
  formal: t.Integer({ minimum: 0 }),
  informal: t.Integer({ minimum: 0 }),
  /** Penalties in the window: <PGM>_PENALTIES, or the last penalty's amount when that is dated in the window (or undated). */
  penaltyUsd: t.Number({ minimum: 0 }),
  lastPenaltyDate: t.Unknown(),
  lastFormalDate: t.Unknown(),
  /** CWA: the latest quarter of CWA_3_YR_QNCR_CODES is a "resolved pending" code (an enforcement response is in place). */
  resolvedPending: t.Boolean(),
  /** CWA: effluent limit exceedances in 13 quarters (0 elsewhere, or when not reported). */
  effluentExceedances: t.Integer({ minimum: 0 }),
  /** <PGM>_LAST_PENALTY_AMT as read (0 when blank or odd): its recency weight when dated in the window. */
  lastPenaltyUsd: t.Number({ minimum: 0 }),
});
export type ProgramFacts = Static<typeof ProgramFacts>;

const QUARTERS = /^[_VSU]*$/;

/** The program's quarterly history, upper-cased and kept whole up to its program's window; '' for anything else. */
function historyOf(name: string, h: unknown): string {
  if (typeof h !== 'string') return '';
  const s = h.toUpperCase();
  const max = name === 'cwa' ? CWA_HISTORY_QUARTERS : HISTORY_QUARTERS;
  return QUARTERS.test(s) ? s.slice(-max) : '';
}

/** The latest quarter's code of a QNCR cell (one code a quarter, oldest first; spaces and commas between codes are allowed). */
export function latestQncrCode(codes: unknown): string | null {
  if (typeof codes !== 'string') return null;
  const compact = codes.replace(/[\s,;]/g, '').toUpperCase();
  return compact === '' ? null : compact.charAt(compact.length - 1);
}

/** The programs the facility is in, sanitised; a non-object entry is a program it is not in. `asOf`: day number. */
export function programFacts(programs: unknown, asOf: number): ProgramFacts[] {
  const out: ProgramFacts[] = [];
  if (typeof programs !== 'object' || programs === null) return out;
  for (const name of PROGRAMS) {
    const p = (programs as Record<string, unknown>)[name] as Partial<ProgramInputs> | null | undefined;
    if (typeof p !== 'object' || p === null) continue;
    let status: CurrentStatus = statusOf(p.status);
    if (p.significant === true) status = 'significant';
    const history = historyOf(name, p.history);
    const maxQuarters = name === 'cwa' ? CWA_HISTORY_QUARTERS : HISTORY_QUARTERS;
    let inHistory = 0;
    for (const c of history) if (c === 'V' || c === 'S') inHistory++;
    const qtrs = Math.min(maxQuarters, Math.max(safeCount(p.qtrs_with_nc), inHistory));
    // a 13-quarter history starts one quarter before the facility's 12: a violation there is outside them
    const oldestOutside = history.length > HISTORY_QUARTERS && (history[0] === 'V' || history[0] === 'S') ? 1 : 0;
    const lastUsd = inWindowOrUndated(asOf, p.last_penalty_date) ? safeAmount(p.last_penalty_usd) : 0;
    const code = name === 'cwa' ? latestQncrCode(p.qncr_codes) : null;
    out.push({
      name,
      status,
      qtrs,
      qtrsIn12: Math.min(HISTORY_QUARTERS, qtrs - oldestOutside),
      history,
      formal: safeCount(p.formal_actions),
      informal: safeCount(p.informal_actions),
      penaltyUsd: Math.max(safeAmount(p.penalties_usd), lastUsd),
      lastPenaltyDate: p.last_penalty_date,
      lastFormalDate: p.last_formal_action_date,
      resolvedPending: code !== null && QNCR_RESOLVED_PENDING_CODES.includes(code),
      effluentExceedances: name === 'cwa' ? safeCount(p.effluent_exceedances) : 0,
      lastPenaltyUsd: safeAmount(p.last_penalty_usd),
    });
  }
  return out;
}
