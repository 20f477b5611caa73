import type { PDFFont } from 'pdf-lib';

/** Code points above the largest in WinAnsi (U+2122, the trade mark sign) are never encodable. */
const CODE_LIMIT = 0x2200;

/** Printable ASCII but `(`, `)` and `\`: a literal string holds these as they are. */
const PLAIN_LITERAL = /^[\x20-\x27\x2a-\x5b\x5d-\x7e]*$/;

/**
 * Widths and WinAnsi bytes of one standard font, read once from pdf-lib and kept as tables.
 * pdf-lib's `widthOfTextAtSize` and `encodeText` build a glyph object per character on every
 * call; with a table lookup instead, measuring and writing a 2,300-row findings table stops
 * being most of its render. Widths equal pdf-lib's to the bit: both add the same integer
 * thousandths (each glyph's width plus its kerning with the next glyph, which pdf-lib counts
 * although the text is drawn without kerning) and scale once.
 */
export class FontMetrics {
  /** Width in thousandths of the size by code point; 0 where the font cannot encode it. */
  private readonly widths = new Int32Array(CODE_LIMIT);
  /** A literal-string fragment by code point: the character, escaped, or its byte in octal. */
  private readonly fragments: string[] = [];
  /** Kerning by pair (first * CODE_LIMIT + second), asked of pdf-lib once per pair. */
  private readonly kerns = new Map<number, number>();

  constructor(private readonly font: PDFFont) {
    for (const cp of font.getCharacterSet()) {
      if (cp >= CODE_LIMIT) continue;
      const ch = String.fromCharCode(cp);
      this.widths[cp] = whole(font.widthOfTextAtSize(ch, 1000));
      const byte = parseInt(font.encodeText(ch).asString(), 16);
      this.fragments[cp] = byte === 0x28 || byte === 0x29 || byte === 0x5c ? `\\${ch}` : byte >= 0x20 && byte <= 0x7e ? ch : `\\${byte.toString(8).padStart(3, '0')}`;
    }
  }

  /** Width of `text` at 1000 points, kerning included, as pdf-lib counts it. */
  units(text: string): number {
    const n = text.length;
    if (n === 0) return 0;
    let total = 0;
    let left = this.code(text, 0);
    for (let i = 1; i < n; i++) {
      const right = this.code(text, i);
      total += this.widths[left]! + this.kern(left, right);
      left = right;
    }
    return total + this.widths[left]!;
  }

  /** The kerning pdf-lib counts between the last character of `left` and the first of `right`. */
  kernBetween(left: string, right: string): number {
    return left && right ? this.kern(this.code(left, left.length - 1), this.code(right, 0)) : 0;
  }

  /** Same value as pdf-lib's `PDFFont.widthOfTextAtSize`, for font-safe text. */
  widthOfTextAtSize(text: string, size: number): number {
    return this.units(text) * (size / 1000);
  }

  /** `text` as a PDF literal string in the font's WinAnsi encoding, parentheses included. */
  literal(text: string): string {
    if (PLAIN_LITERAL.test(text)) return `(${text})`;
    let out = '(';
    for (let i = 0; i < text.length; i++) out += this.fragments[this.code(text, i)];
    return `${out})`;
  }

  private code(text: string, i: number): number {
    const cp = text.charCodeAt(i);
    // the same refusal pdf-lib makes: text must pass the WinAnsi sanitiser first
    if (cp >= CODE_LIMIT || this.widths[cp] === 0) throw new Error(`${this.font.name} cannot encode U+${cp.toString(16).padStart(4, '0')}`);
    return cp;
  }

  private kern(left: number, right: number): number {
    const key = left * CODE_LIMIT + right;
    let k = this.kerns.get(key);
    if (k === undefined) {
      k = whole(this.font.widthOfTextAtSize(String.fromCharCode(left, right), 1000) - this.widths[left]! - this.widths[right]!);
      this.kerns.set(key, k);
    }
    return k;
  }
}

/** AFM metrics are whole thousandths; sums of them are then exact in any order, which wrapping relies on. */
function whole(units: number): number {
  if (!Number.isInteger(units)) throw new Error(`font metric ${units} is not a whole number of thousandths`);
  return units;
}

// Standard font metrics are constants of the format, the same in every document, so one table
// per font name serves every render (building one costs more than a small report's text).
const byName = new Map<string, FontMetrics>();

/** The metrics of a WinAnsi standard font (Helvetica and its styles); not for embedded TrueType fonts. */
export function metricsOf(font: PDFFont): FontMetrics {
  let m = byName.get(font.name);
  if (!m) byName.set(font.name, (m = new FontMetrics(font)));
  return m;
}
