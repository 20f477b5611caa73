import { COLORS, CONTENT_WIDTH, Flow, PAGE } from './layout';
import type { ReportView } from './model';
import { scoreColor } from './sections';

const PLOT_HEIGHT = 48;
const AXIS_WIDTH = 26;

/** One sentence under the chart: where the score stands and how it moved over the releases shown. */
export function scoreTrendSummary(points: ReportView['score_history']): string {
  const scored = points.filter((p): p is { as_of: string; overall_score: number } => p.overall_score !== null);
  const last = scored.at(-1);
  if (!last) return 'No score in the releases held.';
  const changes = scored.filter((p, i) => i > 0 && p.overall_score !== scored[i - 1]!.overall_score).length;
  const values = scored.map((p) => p.overall_score);
  return (
    `${scored.length} weekly release${scored.length === 1 ? '' : 's'} from ${scored[0]!.as_of} to ${last.as_of}: ` +
    (changes === 0 ? `the score stayed at ${last.overall_score}.` : `score ${scored[0]!.overall_score} then ${last.overall_score} (range ${Math.min(...values)}-${Math.max(...values)}; changed in ${changes} release${changes === 1 ? '' : 's'}).`)
  );
}

/** A small line chart of the overall score per release held (0-100), oldest on the left. */
export function drawScoreTrend(f: Flow, v: ReportView): void {
  const points = v.score_history;
  // One release is one line of text, not a chart: it must not push a page break a chart would need.
  f.ensure(points.length < 2 ? 52 : PLOT_HEIGHT + 70);
  f.heading('Score over time');
  if (points.length < 2) {
    f.y -= 14;
    f.text(`This service holds one release for this facility (as of ${v.as_of}): its score history starts here.`, PAGE.margin, f.y, { size: 9 });
    f.y -= 6;
    return;
  }
  const top = f.y - 10;
  const bottom = top - PLOT_HEIGHT;
  const x0 = PAGE.margin + AXIS_WIDTH;
  const x1 = PAGE.margin + CONTENT_WIDTH - 6;
  const yOf = (score: number) => bottom + (score / 100) * PLOT_HEIGHT;
  const xOf = (i: number) => x0 + (i * (x1 - x0)) / (points.length - 1);
  for (const level of [0, 50, 100]) {
    f.page.line(x0, yOf(level), x1, yOf(level), 0.5, COLORS.rule);
    f.text(String(level), x0 - 6, yOf(level) - 3, { size: 7, color: COLORS.faint }, 'right');
  }
  // a removal (no score) breaks the line
  points.forEach((p, i) => {
    const prev = points[i - 1];
    if (i > 0 && p.overall_score !== null && prev?.overall_score != null) {
      f.page.line(xOf(i - 1), yOf(prev.overall_score), xOf(i), yOf(p.overall_score), 1.25, COLORS.navy);
    }
  });
  points.forEach((p, i) => {
    if (p.overall_score !== null) f.page.circle(xOf(i), yOf(p.overall_score), 2.2, { fill: scoreColor(p.overall_score / 100) });
  });
  f.y = bottom - 11;
  f.text(points[0]!.as_of, x0, f.y, { size: 7.5, color: COLORS.muted });
  f.text(points.at(-1)!.as_of, x1, f.y, { size: 7.5, color: COLORS.muted }, 'right');
  f.y -= 13;
  f.text(scoreTrendSummary(points), PAGE.margin, f.y, { size: 8.5, color: COLORS.muted });
  f.y -= 4;
}
