import type { Evidence } from '../index/evidence';
import { dfrUrlOf, latestActionOf } from '../facilities/evidence';
import { completenessNotes } from '../scoring/completeness';
import { COLORS, CONTENT_WIDTH, PAGE, type Flow } from './layout';
import type { ReportView } from './model';
import { NOT_REPORTED } from './record-rows';

const BODY = { size: 8.5 };
const LABEL = { size: 8.5, bold: true, color: COLORS.muted };
const LEADING = 10.5;

const amount = (n: number | null, unit: string) => (n === null ? NOT_REPORTED : `${Math.round(n).toLocaleString('en-US')} ${unit}`);

/** As many case IDs as one line holds, then how many more (each is on ECHO at the case report address). */
function casesLine(f: Flow, ids: string[] | null, width: number): string {
  if (ids === null) return NOT_REPORTED;
  if (ids.length === 0) return 'None on record';
  for (let n = ids.length; n > 0; n--) {
    const line = ids.slice(0, n).join(', ') + (n < ids.length ? ` and ${ids.length - n} more` : '');
    if (f.width(line, BODY) <= width) return line;
  }
  return `${ids.length} cases`;
}

/** A null date is "none on record" or "no such column": ECHO's per-agency dates cannot tell the two apart. */
function latestLine(e: Evidence): string {
  const latest = latestActionOf(e);
  return latest.by === null ? 'no action date on record' : `${latest.by}, ${latest.date}`;
}

/** One line of label-value pairs, each pair after the previous one. */
function pairsLine(f: Flow, pairs: [string, string][]): void {
  f.y -= LEADING;
  let x = PAGE.margin;
  for (const [label, value] of pairs) {
    f.text(label, x, f.y, LABEL);
    x += f.width(label, LABEL) + 5;
    f.text(value, x, f.y, BODY);
    x += f.width(value, BODY) + 18;
  }
}

/**
 * The ECHO records shown beside the score, not read by it: the facility's ECHO report, who acted
 * last, federal cases, TRI and GHG, and what the data lacks. Compact lines, not a table: the
 * dossier is two pages at most, and the fullest record fills them (test/reports/two-pages.test.ts).
 */
export function drawEvidence(f: Flow, v: ReportView): void {
  const e = v.evidence;
  const notes = v.data_completeness ? completenessNotes(v.data_completeness) : [];
  f.ensure(30 + LEADING * (e ? 3 : 1) + (notes.length ? 2 * LEADING : 0)); // the block stays on one page
  f.heading('Evidence beside the score (ECHO records, not part of it)');
  const report: [string, string] = ['ECHO facility report', dfrUrlOf(v.registry_id) ?? 'none: not an EPA Registry ID'];
  if (!e) pairsLine(f, [report]);
  else {
    pairsLine(f, [report, ['Latest action by', latestLine(e)]]);
    const label = 'Federal enforcement cases';
    pairsLine(f, [[label, casesLine(f, e.fec_case_ids, CONTENT_WIDTH - f.width(label, LABEL) - 5)]]);
    const tri = e.tri_on_site_releases_lbs === null && e.tri_releases_transfers_lbs === null ? NOT_REPORTED : `${amount(e.tri_on_site_releases_lbs, 'lb on site')}, ${amount(e.tri_releases_transfers_lbs, 'lb with transfers')}`;
    pairsLine(f, [['TRI releases', tri], ['GHG', amount(e.ghg_co2_tonnes, 't CO2e')]]);
  }
  if (notes.length) {
    const style = { size: 8, color: COLORS.muted };
    for (const line of f.lines(`Data completeness: ${notes.join(' ')}`, style, CONTENT_WIDTH, 2)) {
      f.y -= LEADING;
      f.text(line, PAGE.margin, f.y, style);
    }
  }
  f.y -= 4;
}
