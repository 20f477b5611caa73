import { PDFDocument, PDFName, StandardFonts, rgb, type PDFFont, type RGB } from 'pdf-lib';
import { metricsOf, type FontMetrics } from './font-metrics';
import { PageContent } from './page-content';
import { clampLines, encoderFor, wrapText } from './text';

/** US Letter, 0.75 in margins; the footer lives inside the bottom margin area above `FOOTER_TOP`. */
export const PAGE = { width: 612, height: 792, margin: 54 } as const;
export const CONTENT_WIDTH = PAGE.width - 2 * PAGE.margin;
const FOOTER_TOP = 62;

const hex = (h: string): RGB => rgb(parseInt(h.slice(1, 3), 16) / 255, parseInt(h.slice(3, 5), 16) / 255, parseInt(h.slice(5, 7), 16) / 255);

/** One restrained palette: navy for structure, grey for secondary text, three status colours. */
export const COLORS = {
  ink: hex('#1A2230'),
  navy: hex('#1F3A5F'),
  muted: hex('#5B6573'),
  faint: hex('#8A94A3'),
  rule: hex('#D5DAE1'),
  track: hex('#E8ECF1'),
  panel: hex('#F4F6F9'),
  white: rgb(1, 1, 1),
  good: hex('#2E7D4F'),
  fair: hex('#C98A0B'),
  poor: hex('#B3261E'),
  warnFill: hex('#FFF4D6'),
  warnLine: hex('#D9A21B'),
  alertFill: hex('#FBE9E7'),
  okFill: hex('#E8F4EC'),
} as const;

export type TextStyle = { size: number; bold?: boolean; italic?: boolean; color?: RGB };

type Face = { key: string; metrics: FontMetrics; font: PDFFont };

/**
 * A top-to-bottom writer of pages: keeps a cursor `y`, breaks pages when a block does not fit,
 * and funnels every string through the WinAnsi sanitiser (the standard fonts lack most of
 * Unicode, so raw text must never reach a page). Pages are written as operator text
 * (./page-content.ts) and handed to pdf-lib only when the document is saved.
 */
export class Flow {
  readonly pages: PageContent[] = [];
  page!: PageContent;
  y = 0;
  /** True once any text lost characters the font cannot show. */
  lossy = false;
  private readonly encode;

  private constructor(
    readonly doc: PDFDocument,
    private readonly faces: { regular: Face; bold: Face; italic: Face },
    private readonly onNewPage: (flow: Flow) => void,
  ) {
    this.encode = encoderFor(faces.regular.font);
  }

  static async create(onNewPage: (flow: Flow) => void): Promise<Flow> {
    const doc = await PDFDocument.create({ updateMetadata: false });
    const face = async (key: string, name: StandardFonts): Promise<Face> => {
      const font = await doc.embedFont(name);
      return { key, font, metrics: metricsOf(font) };
    };
    const faces = { regular: await face('F1', StandardFonts.Helvetica), bold: await face('F2', StandardFonts.HelveticaBold), italic: await face('F3', StandardFonts.HelveticaOblique) };
    const flow = new Flow(doc, faces, onNewPage);
    flow.newPage();
    return flow;
  }

  newPage(): void {
    this.page = new PageContent();
    this.pages.push(this.page);
    this.y = PAGE.height - PAGE.margin;
    this.onNewPage(this);
  }

  /** Starts a new page unless `height` points still fit above the footer. */
  ensure(height: number): void {
    if (this.y - height < FOOTER_TOP + 12) this.newPage();
  }

  private face(style: TextStyle): Face {
    return style.bold ? this.faces.bold : style.italic ? this.faces.italic : this.faces.regular;
  }

  /**
   * Font-safe version of `raw`; records whether anything was lost. The service's notes mark names
   * of fields as markdown code (`zip`), which a page prints as the plain name.
   */
  safe(raw: string): string {
    const r = this.encode(raw.includes('`') ? raw.replace(/`([^`\n]+)`/g, '$1') : raw);
    if (r.lossy) this.lossy = true;
    return r.text;
  }

  width(raw: string, style: TextStyle): number {
    return this.face(style).metrics.widthOfTextAtSize(this.safe(raw), style.size);
  }

  /** Draws one line at an absolute position; `align` right/center uses `x` as that edge/centre. */
  text(raw: string, x: number, y: number, style: TextStyle, align: 'left' | 'right' | 'center' = 'left', page = this.page): void {
    const text = this.safe(raw);
    const face = this.face(style);
    const w = align === 'left' ? 0 : face.metrics.widthOfTextAtSize(text, style.size);
    const left = align === 'left' ? x : align === 'right' ? x - w : x - w / 2;
    page.text(face.metrics.literal(text), face.key, style.size, left, y, style.color ?? COLORS.ink);
  }

  /** Wrapped lines of `raw` in `width`, at most `maxLines` (ellipsis when cut). */
  lines(raw: string, style: TextStyle, width: number, maxLines = Infinity): string[] {
    const text = this.safe(raw);
    const metrics = this.face(style).metrics;
    return Number.isFinite(maxLines) ? clampLines(text, metrics, style.size, width, maxLines) : wrapText(text, metrics, style.size, width);
  }

  /** A wrapped paragraph at the cursor, breaking pages between lines; leaves `y` below it. */
  paragraph(raw: string, style: TextStyle, opts: { x?: number; width?: number; leading?: number } = {}): void {
    const x = opts.x ?? PAGE.margin;
    const leading = opts.leading ?? style.size * 1.4;
    const face = this.face(style);
    for (const line of this.lines(raw, style, opts.width ?? CONTENT_WIDTH)) {
      this.ensure(leading);
      this.y -= style.size;
      this.page.text(face.metrics.literal(line), face.key, style.size, x, this.y, style.color ?? COLORS.ink);
      this.y -= leading - style.size;
    }
  }

  rect(x: number, y: number, width: number, height: number, fill: RGB, border?: RGB): void {
    this.page.rect(x, y, width, height, border ? { fill, stroke: border, width: 0.75 } : { fill });
  }

  rule(y = this.y, color: RGB = COLORS.rule): void {
    this.page.line(PAGE.margin, y, PAGE.width - PAGE.margin, y, 0.75, color);
  }

  /** A section title with a rule under it. */
  heading(title: string): void {
    this.ensure(40);
    this.y -= 20;
    this.text(title.toUpperCase(), PAGE.margin, this.y, { size: 9.5, bold: true, color: COLORS.navy });
    this.y -= 6;
    this.rule();
    this.y -= 4;
  }

  /** Draws `footer` on every page once the page count is known, and serialises the document. */
  async finish(footer: (flow: Flow, page: PageContent, index: number, count: number) => void): Promise<Uint8Array> {
    this.pages.forEach((p, i) => footer(this, p, i, this.pages.length));
    for (const content of this.pages) {
      const page = this.doc.addPage([PAGE.width, PAGE.height]);
      for (const face of Object.values(this.faces)) page.node.setFontDictionary(PDFName.of(face.key), face.font.ref);
      const stream = this.doc.context.stream(content.deflated(), { Filter: 'FlateDecode' });
      page.node.addContentStream(this.doc.context.register(stream));
    }
    // objectsPerTick: pdf-lib otherwise yields to a timer every 50 objects, which costs more than the work here
    return this.doc.save({ useObjectStreams: true, objectsPerTick: Number.POSITIVE_INFINITY });
  }
}

export const FOOTER_BASELINE = 40;

/** The head of every page after the first: what the document is on the left, whose on the right (cut to one line of `whoseWidth`, then `suffix`). */
export function drawRunningHead(f: Flow, what: string, whose: string, whoseWidth: number, suffix = ''): void {
  const y = PAGE.height - 40;
  f.text(what, PAGE.margin, y, { size: 8.5, bold: true, color: COLORS.navy });
  const right = (f.lines(whose, { size: 8.5 }, whoseWidth, 1)[0] ?? '') + suffix;
  f.text(right, PAGE.width - PAGE.margin, y, { size: 8.5, color: COLORS.muted }, 'right');
  f.rule(y - 8);
  f.y = y - 14;
}

/** The banner a document of the fictitious sample carries on its first page; `sentence` says what is invented. */
export function drawFictitiousBanner(f: Flow, sentence: string): void {
  const h = 34;
  f.rect(PAGE.margin, f.y - h, CONTENT_WIDTH, h, COLORS.warnFill, COLORS.warnLine);
  f.text('FICTITIOUS SAMPLE DATA', PAGE.margin + 12, f.y - 14, { size: 9.5, bold: true, color: COLORS.poor });
  f.text(sentence, PAGE.margin + 12, f.y - 26, { size: 8.5, color: COLORS.ink });
  f.y -= h + 14;
}
