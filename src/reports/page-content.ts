import type { RGB } from 'pdf-lib';
import { AsciiBuffer, num, zlibDeflate } from './content-bytes';

const colorOf = (c: RGB) => `${num(c.red)} ${num(c.green)} ${num(c.blue)}`;

// pdf-lib's circle: four Bézier quarters with this handle length, starting at the left point
const KAPPA = (4 * (Math.SQRT2 - 1)) / 3;

/** A circle of radius `r` around the origin, as path operators. */
export function circlePath(r: number): string {
  const o = num(r * KAPPA);
  const [a, b] = [num(r), num(-r)];
  return `${b} 0 m ${b} -${o} -${o} ${b} 0 ${b} c ${o} ${b} ${a} -${o} ${a} 0 c ${a} ${o} ${o} ${a} 0 ${a} c -${o} ${a} ${b} ${o} ${b} 0 c h`;
}

export type Paint = { fill?: RGB; stroke?: RGB; width?: number; dash?: readonly number[] };

/**
 * The operators of one page, written as ASCII bytes and deflated natively when the page is done.
 * pdf-lib builds an object per operator and operand and deflates in JavaScript; for a page of
 * table rows that was most of a site report's render. The graphics state is tracked, so a
 * colour, line width, dash or font is set only when it changes, and consecutive lines of text
 * share one text object (BT ... ET), each line placed by its offset from the one before (`Td`):
 * a table's rows repeat the same offsets, which deflate far better than absolute positions (a
 * metro site report's PDF is markedly smaller). Offsets are taken between positions rounded to the
 * thousandth, so every line lands exactly where an absolute `Tm` would put it. Nothing here saves
 * and restores state except around a translated circle, which restores only the translation.
 */
export class PageContent {
  private readonly out = new AsciiBuffer();
  private inText = false;
  /** The last fill colour set, by object and as written: palette colours are shared objects, so identity settles most calls. */
  private fillRgb: RGB | null = null;
  private fillColor = '';
  private strokeColor = '';
  private lineWidth = '';
  private dashPattern = '[] 0 d';
  private font = '';
  private fontSize = NaN;
  /** Where the current line starts, in thousandths of a point (a text object starts at the origin). */
  private lineX = 0;
  private lineY = 0;
  private readonly circles = new Map<number, string>();

  /** One line of text: `literal` is an encoded PDF string, `font` a resource name of the page. */
  text(literal: string, font: string, size: number, x: number, y: number, color: RGB): void {
    if (!this.inText) {
      this.write('BT\n');
      this.inText = true;
      this.lineX = this.lineY = 0;
    }
    if (font !== this.font || size !== this.fontSize) {
      this.write(`/${font} ${num(size)} Tf\n`);
      [this.font, this.fontSize] = [font, size];
    }
    this.setFill(color);
    const [tx, ty] = [Math.round(x * 1000), Math.round(y * 1000)];
    this.write(`${num((tx - this.lineX) / 1000)} ${num((ty - this.lineY) / 1000)} Td ${literal} Tj\n`);
    [this.lineX, this.lineY] = [tx, ty];
  }

  rect(x: number, y: number, width: number, height: number, paint: Paint): void {
    this.shape(`${num(x)} ${num(y)} ${num(width)} ${num(height)} re`, paint);
  }

  line(x1: number, y1: number, x2: number, y2: number, width: number, color: RGB): void {
    this.shape(`${num(x1)} ${num(y1)} m ${num(x2)} ${num(y2)} l`, { stroke: color, width });
  }

  /** A closed polygon through `points`. */
  polygon(points: readonly [number, number][], paint: Paint): void {
    this.shape(`${points.map(([x, y], i) => `${num(x)} ${num(y)} ${i === 0 ? 'm' : 'l'}`).join(' ')} h`, paint);
  }

  /** An open line through `points` (a border on a map). */
  polyline(points: readonly [number, number][], paint: Paint): void {
    this.shape(points.map(([x, y], i) => `${num(x)} ${num(y)} ${i === 0 ? 'm' : 'l'}`).join(' '), paint);
  }

  /** A circle; its path is written once per radius and moved into place, so a map of dots stays small. */
  circle(x: number, y: number, r: number, paint: Paint): void {
    let path = this.circles.get(r);
    if (path === undefined) this.circles.set(r, (path = circlePath(r)));
    this.shape(`q 1 0 0 1 ${num(x)} ${num(y)} cm ${path}`, paint, ' Q');
  }

  /** The page's operators, uncompressed (for tests and for reading). */
  operators(): string {
    this.endText();
    return Buffer.from(this.out.view()).toString('latin1');
  }

  /** The content stream's bytes, zlib-deflated (a FlateDecode stream). */
  deflated(): Uint8Array {
    this.endText();
    return zlibDeflate(this.out.view());
  }

  private write(s: string): void {
    this.out.write(s);
  }

  private shape(path: string, p: Paint, after = ''): void {
    this.endText();
    if (p.fill) this.setFill(p.fill);
    if (p.stroke) {
      const sc = `${colorOf(p.stroke)} RG`;
      if (sc !== this.strokeColor) this.write(`${(this.strokeColor = sc)}\n`);
      const w = `${num(p.width ?? 1)} w`;
      if (w !== this.lineWidth) this.write(`${(this.lineWidth = w)}\n`);
      const d = p.dash?.length ? `[${p.dash.map(num).join(' ')}] 0 d` : '[] 0 d';
      if (d !== this.dashPattern) this.write(`${(this.dashPattern = d)}\n`);
    }
    this.write(`${path} ${p.fill && p.stroke ? 'B' : p.fill ? 'f' : 'S'}${after}\n`);
  }

  private setFill(color: RGB): void {
    if (color === this.fillRgb) return;
    this.fillRgb = color;
    const fc = `${colorOf(color)} rg`;
    if (fc !== this.fillColor) this.write(`${(this.fillColor = fc)}\n`);
  }

  private endText(): void {
    if (this.inText) this.write('ET\n');
    this.inText = false;
  }
}
