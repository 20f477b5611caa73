import type { RGB } from 'pdf-lib';
import { COLORS, CONTENT_WIDTH, PAGE, type Flow } from '../reports/layout';

/** One column of a PDF table: its header, width in points, and the lines of a row's cell. */
export type Column<T> = {
  label: string;
  width: number;
  align?: 'left' | 'right' | 'center';
  /** The cell's lines; each is wrapped to the column's width. */
  cell: (row: T) => string | string[];
  /** The first line bold (a name over its address). */
  boldFirst?: boolean;
  /** A colour for the cell's text (a score in its band's colour). */
  color?: (row: T) => RGB;
  /** Never cut to `maxLines`: a cell whose every line matters (a facility's registry ID and ZIP under its wrapped name and address). */
  whole?: boolean;
};

const PAD = 3;

/**
 * A table that flows across pages: a header row (repeated on every page the table continues on),
 * then one row per item, zebra-striped, every cell wrapped to its column (at most `maxLines` lines
 * a cell, the last ending in an ellipsis when cut, unless the column is `whole`). A row is never
 * split across pages.
 */
export function drawTable<T>(f: Flow, columns: Column<T>[], rows: readonly T[], opts: { size?: number; maxLines?: number } = {}): void {
  const size = opts.size ?? 7.5;
  const leading = size * 1.3;
  const maxLines = opts.maxLines ?? 4;
  const scale = CONTENT_WIDTH / columns.reduce((w, c) => w + c.width, 0);
  const widths = columns.map((c) => c.width * scale);
  const headerLines = columns.map((c, i) => f.lines(c.label, { size, bold: true }, widths[i]! - 2 * PAD, 2));
  const headerH = Math.max(...headerLines.map((l) => l.length)) * leading + 2 * PAD;
  const header = () => {
    f.rect(PAGE.margin, f.y - headerH, CONTENT_WIDTH, headerH, COLORS.navy);
    let x = PAGE.margin;
    columns.forEach((c, i) => {
      headerLines[i]!.forEach((line, k) => cellText(f, line, x, widths[i]!, f.y - PAD - size - k * leading, c.align, { size, bold: true, color: COLORS.white }));
      x += widths[i]!;
    });
    f.y -= headerH;
  };
  const cellsOf = (row: T) =>
    columns.map((c, i) => {
      const raw = c.cell(row);
      const out: { text: string; bold: boolean; first: boolean }[] = [];
      (Array.isArray(raw) ? raw : [raw]).forEach((part, k) => {
        const bold = Boolean(c.boldFirst && k === 0);
        for (const line of f.lines(part, { size, bold }, widths[i]! - 2 * PAD)) out.push({ text: line, bold, first: k === 0 });
      });
      if (!c.whole && out.length > maxLines) {
        out.length = maxLines;
        out[maxLines - 1] = { ...out[maxLines - 1]!, text: `${out[maxLines - 1]!.text.replace(/.$/, '')}…` };
      }
      return out;
    });
  const heightOf = (cells: ReturnType<typeof cellsOf>) => Math.max(1, ...cells.map((c) => c.length)) * leading + 2 * PAD;
  // the header never stands alone at the foot of a page: it starts where its first row fits too
  const first = rows.length > 0 ? cellsOf(rows[0]!) : null;
  f.ensure(headerH + (first ? heightOf(first) : 0));
  header();
  rows.forEach((row, r) => {
    const cells = r === 0 ? first! : cellsOf(row);
    const h = heightOf(cells);
    const pages = f.pages.length;
    f.ensure(h);
    if (f.pages.length !== pages) header();
    if (r % 2 === 1) f.rect(PAGE.margin, f.y - h, CONTENT_WIDTH, h, COLORS.panel);
    let x = PAGE.margin;
    columns.forEach((c, i) => {
      const color = c.color?.(row) ?? COLORS.ink;
      cells[i]!.forEach((line, k) => cellText(f, line.text, x, widths[i]!, f.y - PAD - size - k * leading, c.align, { size, bold: line.bold, color: line.first ? color : COLORS.muted }));
      x += widths[i]!;
    });
    f.y -= h;
  });
  f.page.line(PAGE.margin, f.y, PAGE.margin + CONTENT_WIDTH, f.y, 0.5, COLORS.rule);
}

function cellText(f: Flow, text: string, x: number, width: number, y: number, align: Column<unknown>['align'], style: { size: number; bold?: boolean; color: RGB }): void {
  if (align === 'right') f.text(text, x + width - PAD, y, style, 'right');
  else if (align === 'center') f.text(text, x + width / 2, y, style, 'center');
  else f.text(text, x + PAD, y, style);
}
