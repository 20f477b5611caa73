import { PROGRAMS, type ProgramInputs, type ScoreInputs } from '../scoring/model';
import { COLORS, CONTENT_WIDTH, Flow, PAGE, type TextStyle } from './layout';

const LABEL = { caa: 'Clean Air Act', cwa: 'Clean Water Act', rcra: 'RCRA (waste)', sdwa: 'Safe Drinking Water Act' } as const;
/** Short for "not reported" where a column is too narrow for the words; a legend under the table says so. */
const NR = 'n/r';
const usd = (n: number) => `$${Math.round(n).toLocaleString('en-US')}`;

/** Column titles and widths (points, summing to the content width): one line per program. */
const COLUMNS: [title: string, width: number][] = [
  ['Program', 104],
  ['Status', 114],
  ['Significant', 46],
  ['Qtrs in NC', 44],
  ['Formal', 34],
  ['Informal', 38],
  ['Penalties', 70],
  ['Last penalty', 54],
];

/** A program's cells in column order; `null` values read "n/r" (the source has no such column). */
export function programCells(p: ProgramInputs): string[] {
  const n = (v: number | null, fmt: (x: number) => string = String) => (v === null ? NR : fmt(v));
  return [
    p.status ?? NR,
    p.significant === null ? NR : p.significant ? 'Yes' : 'No',
    n(p.qtrs_with_nc),
    n(p.formal_actions),
    n(p.informal_actions),
    n(p.penalties_usd, usd),
    p.last_penalty_date ?? (p.penalties_usd === null ? NR : p.penalties_usd > 0 ? 'no date' : 'none'),
  ];
}

/** The programs the facility is in, label first; empty when it is in none the source reports. */
export function programRows(i: ScoreInputs): string[][] {
  return PROGRAMS.flatMap((k) => {
    const p = i.programs[k];
    return p ? [[LABEL[k], ...programCells(p)]] : [];
  });
}

/**
 * Each program's own ECHO record as a table of one line per program (a line each, not a paragraph
 * each: with all four programs the wrapped form pushed the dossier onto a third page). Never split
 * across pages; long statuses end in an ellipsis.
 */
export function drawProgramTable(f: Flow, inputs: ScoreInputs): void {
  const rows = programRows(inputs);
  if (rows.length === 0) return;
  const legend = rows.some((r) => r.includes(NR));
  f.ensure(40 + 14 * (rows.length + 1));
  f.heading("By program (each program's own ECHO record)");
  // On the heading's line, right-aligned: the legend costs no height.
  if (legend) f.text('n/r: not reported by the source file', PAGE.width - PAGE.margin, f.y + 10, { size: 7.5, color: COLORS.muted }, 'right');
  const cells = (values: string[], style: (column: number) => TextStyle) => {
    let x = PAGE.margin + 6;
    values.forEach((v, k) => {
      f.text(f.lines(v, style(k), COLUMNS[k]![1] - 6, 1)[0] ?? '', x, f.y, style(k));
      x += COLUMNS[k]![1];
    });
  };
  f.y -= 13;
  cells(COLUMNS.map(([title]) => title), () => ({ size: 7.5, bold: true, color: COLORS.faint }));
  rows.forEach((row, k) => {
    f.y -= 14;
    if (k % 2 === 0) f.rect(PAGE.margin, f.y - 4, CONTENT_WIDTH, 14, COLORS.panel);
    cells(row, (column) => (column === 0 ? { size: 8.5, bold: true, color: COLORS.muted } : { size: 8.5 }));
  });
  f.y -= 8;
}
