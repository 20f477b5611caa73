import { significantNow } from '../scoring/facts';
import { PROGRAMS, type ProgramInputs, type ScoreInputs } from '../scoring/model';

/** The dossier's wording for an absent column: the source did not say, which is not "none". */
export const NOT_REPORTED = 'Not reported';

const usd = (n: number) => `$${Math.round(n).toLocaleString('en-US')}`;
const unreported = (i: ScoreInputs, field: string) => i.not_reported.includes(field);

/** A count and the date of the last one: "None on record" only when the source reports a zero count. */
function countAndLast(i: ScoreInputs, n: number | null, last: string | null, dateField: string): string {
  if (n === null) return last === null ? NOT_REPORTED : `${NOT_REPORTED} (last: ${last})`;
  if (n === 0) return 'None on record';
  return `${n} (last: ${last ?? (unreported(i, dateField) ? 'date not reported' : 'date not given')})`;
}

function penalties(i: ScoreInputs): string {
  const total = i.total_penalties_usd;
  if (i.penalty_count === null) return total === null ? NOT_REPORTED : total === 0 ? 'None on record' : `${usd(total)} in total (count not reported)`;
  if (i.penalty_count === 0 && !total) return 'None on record';
  return `${i.penalty_count}, totalling ${total === null ? 'an unreported amount' : usd(total)}`;
}

function lastPenalty(i: ScoreInputs): string {
  if (i.date_last_penalty !== null) return `${i.last_penalty_usd === null ? 'Amount not reported' : usd(i.last_penalty_usd)} on ${i.date_last_penalty}`;
  // no date: either the column is absent (facility-search files) or there is no penalty
  if (unreported(i, 'date_last_penalty')) return NOT_REPORTED;
  return (i.penalty_count ?? 0) === 0 && !i.total_penalties_usd ? 'None on record' : 'Date not given';
}

/** The ECHO facility-level fields the score reads, as label/value rows; absent columns read "Not reported". */
export function recordRows(i: ScoreInputs): [string, string][] {
  return [
    ['Compliance status', i.compliance_status || NOT_REPORTED],
    ['Significant non-compliance', significantNow(i) ? 'Yes' : 'No'],
    ['Quarters in violation', i.qtrs_with_nc === null ? NOT_REPORTED : `${i.qtrs_with_nc} of the last 12`],
    ['Inspections', countAndLast(i, i.inspection_count, i.date_last_inspection, 'date_last_inspection')],
    ['Informal actions', countAndLast(i, i.informal_action_count, i.date_last_informal_action, 'date_last_informal_action')],
    ['Formal actions', countAndLast(i, i.formal_action_count, i.date_last_formal_action, 'date_last_formal_action')],
    ['Penalties', penalties(i)],
    ['Last penalty', lastPenalty(i)],
    ['Federal cases', i.federal_cases === null ? NOT_REPORTED : i.federal_cases === 0 ? 'None on record' : `${i.federal_cases}${i.date_last_federal_case ? ` (last: ${i.date_last_federal_case})` : ''}`],
  ];
}

const LABEL = { caa: 'Clean Air Act', cwa: 'Clean Water Act', rcra: 'RCRA (waste)', sdwa: 'Safe Drinking Water Act' } as const;

function programLine(p: ProgramInputs): string {
  const part = (label: string, v: number | null, fmt: (n: number) => string = String) => `${label} ${v === null ? 'not reported' : fmt(v)}`;
  return [
    p.status ?? 'status not reported',
    p.significant === null ? 'SNC not reported' : p.significant ? 'SNC/HPV' : 'not SNC',
    part('quarters in NC', p.qtrs_with_nc),
    part('formal', p.formal_actions),
    part('informal', p.informal_actions),
    part('penalties', p.penalties_usd, usd),
    p.last_penalty_date ? `last penalty ${p.last_penalty_date}` : null,
  ].filter((x) => x !== null).join('; ');
}

/** One row per program the facility is in; empty when it is in none the source reports. */
export function programRows(i: ScoreInputs): [string, string][] {
  return PROGRAMS.flatMap((k): [string, string][] => {
    const p = i.programs[k];
    return p ? [[LABEL[k], programLine(p)]] : [];
  });
}
