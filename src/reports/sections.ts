import type { RGB } from 'pdf-lib';
import { MAX_POINTS } from '../scoring/model';
import { COLORS, CONTENT_WIDTH, Flow, PAGE } from './layout';
import type { ReportView } from './model';
import { drawProgramTable } from './program-table';
import { recordRows } from './record-rows';
import { printedTime } from './text';

/** Status colour of a fraction of the possible points. */
export function scoreColor(fraction: number): RGB {
  return fraction >= 0.8 ? COLORS.good : fraction >= 0.5 ? COLORS.fair : COLORS.poor;
}

/** What the four components can add to the baseline together (85). */
const COMPONENT_POINTS = Object.values(MAX_POINTS).reduce((sum, max) => sum + max, 0);


/** One row per component: name, points, a bar of score/max and the driver line under it. */
export function drawBreakdown(f: Flow, v: ReportView): void {
  f.heading('Score breakdown');
  const pointsX = PAGE.width - PAGE.margin;
  const barX = PAGE.margin + 150;
  const barW = CONTENT_WIDTH - 150 - 78;
  for (const c of v.components) {
    const driver = f.lines(c.driver, { size: 8.5 }, CONTENT_WIDTH - 150, 2);
    f.ensure(30 + driver.length * 11);
    f.y -= 18;
    f.text(c.label, PAGE.margin, f.y, { size: 10.5, bold: true });
    f.rect(barX, f.y - 1, barW, 9, COLORS.track);
    if (c.score > 0) f.rect(barX, f.y - 1, (barW * c.score) / c.max_points, 9, scoreColor(c.score / c.max_points));
    f.text(`${c.score} of ${c.max_points}`, pointsX, f.y, { size: 10.5, bold: true }, 'right');
    for (const line of driver) {
      f.y -= 12;
      f.text(line, barX, f.y, { size: 8.5, color: COLORS.muted });
    }
    f.y -= 6;
  }
  f.ensure(44);
  f.y -= 18;
  f.text('Baseline', PAGE.margin, f.y, { size: 10.5, bold: true });
  f.text('Fixed base points every scored facility starts with.', barX, f.y, { size: 8.5, color: COLORS.muted });
  f.text(`${v.baseline}`, pointsX, f.y, { size: 10.5, bold: true }, 'right');
  f.y -= 9;
  f.rule(f.y, COLORS.ink);
  f.y -= 15;
  f.text('Overall score', PAGE.margin, f.y, { size: 11, bold: true });
  const sum = v.components.map((c) => `${c.score}`).join(' + ');
  f.text(`${v.baseline} + ${sum}`, barX, f.y, { size: 8.5, color: COLORS.muted });
  f.text(`${v.overall_score} of 100`, pointsX, f.y, { size: 11, bold: true, color: scoreColor(v.overall_score / 100) }, 'right');
  f.y -= 8;
}

const QUARTER_STYLE: Record<string, { fill: RGB; label: string }> = {
  _: { fill: COLORS.okFill, label: 'No violation' },
  V: { fill: COLORS.fair, label: 'Violation' },
  S: { fill: COLORS.poor, label: 'Significant violation' },
  U: { fill: COLORS.track, label: 'Undetermined' },
};

/**
 * The ECHO fields the score reads ("Not reported" where the source has no column): the status on a
 * line of its own, the short values two to a line (the dossier keeps to two pages).
 */
export function drawRecord(f: Flow, v: ReportView): void {
  const [status, ...rest] = recordRows(v.inputs);
  const lines: [string, string][][] = [[status!]];
  for (let k = 0; k < rest.length; k += 2) lines.push(rest.slice(k, k + 2));
  drawTable(f, 'Compliance record (ECHO fields the score reads)', lines);
  drawProgramTable(f, v.inputs);
}

const HALF = CONTENT_WIDTH / 2;

/** Label-value cells under a heading, one line each (a lone cell spans the line), never split across pages. */
export function drawTable(f: Flow, title: string, lines: [string, string][][]): void {
  f.ensure(40 + lines.length * 14);
  f.heading(title);
  for (const [k, cells] of lines.entries()) {
    f.y -= 14;
    if (k % 2 === 0) f.rect(PAGE.margin, f.y - 4, CONTENT_WIDTH, 14, COLORS.panel);
    const valueWidth = cells.length === 1 ? CONTENT_WIDTH - 170 : HALF - 144;
    for (const [c, [label, value]] of cells.entries()) {
      const x = PAGE.margin + 8 + c * HALF;
      f.text(label, x, f.y, { size: 9, bold: true, color: COLORS.muted });
      f.text(f.lines(value, { size: 9 }, valueWidth, 1)[0] ?? '', x + (cells.length === 1 ? 152 : 132), f.y, { size: 9 });
    }
  }
  f.y -= 8;
}

/** ECHO's 12-quarter compliance history as a strip of squares, oldest on the left. */
export function drawHistory(f: Flow, v: ReportView): void {
  const history = (v.inputs.history ?? '').slice(-12); // ECHO's field is 12 quarters; never draw past the margin
  f.ensure(90);
  f.heading('Compliance history, last 12 quarters');
  if (history === '') {
    f.y -= 14;
    const why = v.inputs.history === null ? 'The source file has no quarterly history column (not reported).' : 'No quarterly history is published for this facility.';
    f.text(why, PAGE.margin, f.y, { size: 9 });
    f.y -= 6;
    return;
  }
  const gap = 4;
  const box = (CONTENT_WIDTH - 11 * gap) / 12;
  f.y -= 28;
  [...history].forEach((q, k) => {
    const style = QUARTER_STYLE[q] ?? QUARTER_STYLE.U!;
    const x = PAGE.margin + k * (box + gap);
    f.rect(x, f.y, box, 20, style.fill, COLORS.rule);
    if (q !== '_') f.text(q, x + box / 2, f.y + 6.5, { size: 8, bold: true, color: q === 'U' ? COLORS.muted : COLORS.white }, 'center');
  });
  f.y -= 11;
  f.text('12 quarters ago', PAGE.margin, f.y, { size: 7.5, color: COLORS.faint });
  f.text('Most recent quarter', PAGE.width - PAGE.margin, f.y, { size: 7.5, color: COLORS.faint }, 'right');
  f.y -= 15;
  let lx = PAGE.margin;
  for (const { fill, label } of Object.values(QUARTER_STYLE)) {
    f.rect(lx, f.y - 1, 8, 8, fill, COLORS.rule);
    f.text(label, lx + 12, f.y, { size: 7.5, color: COLORS.muted });
    lx += 26 + f.width(label, { size: 7.5 });
  }
  f.y -= 4;
}

/** Method note, provenance and what this document is; prose flows across pages as needed. */
export function drawAbout(f: Flow, v: ReportView): void {
  const body = { size: 9, color: COLORS.ink };
  f.heading('How the score is computed');
  // A client reads this page: the method is named by its version, never by a file of this repository.
  f.paragraph(
    `Scores run from 0 to 100, higher is better: ${v.baseline} baseline points and four components worth ${COMPONENT_POINTS} more, each losing ` +
      'points for what ECHO records: violation frequency, penalty severity (an unanswered significant violation is the top band), ' +
      'recency (by size) and repeat offender. ECHO has no "case open" flag: the enforcement flag means a formal action in the last ' +
      `12 months, or a significant violation being addressed. Points use the ECHO fields as of ${v.as_of} (method ${v.score_version}), not the printing date.`,
    body,
  );
  f.heading('Data and provenance');
  const facts: [string, string][] = [
    ['Dataset', v.dataset_name],
    ['Nature of data', v.fictitious ? 'FICTITIOUS sample: invented facilities and figures, not EPA data' : 'U.S. EPA ECHO public records'],
    ['Data as of', `${v.as_of}, scored with scoring method ${v.score_version}`],
    ...v.sources.map((s): [string, string] => ['Source file', `${s.name} (sha256 ${s.sha256.slice(0, 16)}…)`]),
    ['Document', `${v.document_id}, generated ${printedTime(v.generated_at)}`],
  ];
  for (const [label, value] of facts) {
    f.ensure(14);
    f.y -= 13;
    f.text(label, PAGE.margin, f.y, { size: 9, bold: true, color: COLORS.muted });
    f.text(f.lines(value, { size: 9 }, CONTENT_WIDTH - 110, 1)[0] ?? '', PAGE.margin + 110, f.y, body);
  }
  f.y -= 8;
  const note = { size: 8.5, italic: true, color: COLORS.muted };
  f.paragraph(
    'Exports of this facility while its record is unchanged are this same document (same ID and generation time) for up to 24 hours. ' +
      'It summarises public records and a derived score; it is not a legal finding, an inspection result or advice: verify important facts ' +
      'against the source records before relying on them.',
    note,
  );
  if (f.lossy) f.paragraph('Characters that cannot be shown in this document\'s font appear as "?"; the registry record holds the exact spelling.', note);
}
