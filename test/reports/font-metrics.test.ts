import { describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { FontMetrics, metricsOf } from '../../src/reports/font-metrics';
import { encoderFor } from '../../src/reports/text';

const doc = await PDFDocument.create();
const fonts = await Promise.all([StandardFonts.Helvetica, StandardFonts.HelveticaBold, StandardFonts.HelveticaOblique].map((f) => doc.embedFont(f)));
const safe = encoderFor(fonts[0]!);

// Latin-1, WinAnsi's extras (€ … “ ” ‘ ’ – —), PDF's string delimiters and letters that kern
const drawable = fc
  .array(fc.oneof(fc.integer({ min: 0x20, max: 0xff }), fc.constantFrom(0x20ac, 0x2026, 0x201c, 0x201d, 0x2018, 0x2019, 0x2013, 0x2014, 0x28, 0x29, 0x5c), fc.constantFrom(...'AVWTYLPFovwy.,'.split('').map((c) => c.charCodeAt(0)))), { maxLength: 60 })
  .map((cps) => safe(String.fromCodePoint(...cps)).text);

/** The bytes of a PDF literal string `( ... )`, undoing its escapes. */
function literalBytes(literal: string): number[] {
  expect(literal.startsWith('(') && literal.endsWith(')')).toBe(true);
  const body = literal.slice(1, -1);
  const out: number[] = [];
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== '\\') out.push(c.charCodeAt(0));
    else if (/[0-7]/.test(body[i + 1]!)) {
      out.push(parseInt(body.slice(i + 1, i + 4), 8));
      i += 3;
    } else out.push(body.charCodeAt(++i));
  }
  return out;
}

describe('standard font metrics read from tables', () => {
  it.each(fonts.map((f) => [f.name, f] as const))('%s: every width equals pdf-lib\'s own, to the bit, at any size', (_name, font) => {
    const m = metricsOf(font);
    fc.assert(
      fc.property(drawable, fc.double({ min: 4, max: 40, noNaN: true }), (text, size) => {
        expect(m.widthOfTextAtSize(text, size)).toBe(font.widthOfTextAtSize(text, size));
      }),
      { numRuns: 400 },
    );
  });

  it('counts the kerning pdf-lib counts (AV is narrower than A and V apart)', () => {
    const [font] = fonts;
    const m = metricsOf(font!);
    const apart = font!.widthOfTextAtSize('A', 10) + font!.widthOfTextAtSize('V', 10);
    expect(m.widthOfTextAtSize('AV', 10)).toBe(font!.widthOfTextAtSize('AV', 10));
    expect(m.widthOfTextAtSize('AV', 10)).toBeLessThan(apart);
    expect(m.kernBetween('LA', 'VE')).toBe(font!.widthOfTextAtSize('AV', 1000) - font!.widthOfTextAtSize('A', 1000) - font!.widthOfTextAtSize('V', 1000));
    expect(m.kernBetween('', 'V')).toBe(0);
  });

  it('writes text as a literal string holding the WinAnsi bytes pdf-lib would encode', () => {
    const m = metricsOf(fonts[0]!);
    fc.assert(
      fc.property(drawable, (text) => {
        const hex = fonts[0]!.encodeText(text).asString();
        const expected = (hex.match(/../g) ?? []).map((h) => parseInt(h, 16));
        const literal = m.literal(text);
        expect(literalBytes(literal)).toEqual(expected);
        expect(literal).toMatch(/^[\x20-\x7e]*$/);
      }),
      { numRuns: 400 },
    );
    expect(m.literal('a (b) \\ c')).toBe('(a \\(b\\) \\\\ c)');
    expect(m.literal('Café €5')).toBe('(Caf\\351 \\2005)');
  });

  it('refuses a character the font cannot encode, as pdf-lib does', () => {
    const m = metricsOf(fonts[0]!);
    expect(() => m.units('東')).toThrow('cannot encode U+6771');
    expect(() => fonts[0]!.widthOfTextAtSize('東', 10)).toThrow();
    expect(() => m.literal('A\u0100')).toThrow('cannot encode U+0100');
  });

  it('one table per font: the same metrics for the same standard font in another document', async () => {
    const other = await (await PDFDocument.create()).embedFont(StandardFonts.Helvetica);
    expect(metricsOf(other)).toBe(metricsOf(fonts[0]!));
    expect(metricsOf(fonts[1]!)).not.toBe(metricsOf(fonts[0]!));
    expect(new FontMetrics(other).units('Hello')).toBe(metricsOf(other).units('Hello'));
  });
});
