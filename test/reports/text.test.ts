import { describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { metricsOf } from '../../src/reports/font-metrics';
import { clampLines, encoderFor, wrapText } from '../../src/reports/text';

const doc = await PDFDocument.create();
const font = await doc.embedFont(StandardFonts.Helvetica);
const safe = encoderFor(font);
// wrapping reads the font's tables; pdf-lib's own measurement stays the judge of every width below
const metrics = metricsOf(font);

// Any code points, lone surrogates included, biased towards Latin where the transliteration lives.
// (Built by hand: fast-check's 'binary' string unit is very slow under Bun.)
const anyText = fc
  .array(fc.oneof(fc.integer({ min: 0, max: 0x2ff }), fc.integer({ min: 0, max: 0x10ffff })), { maxLength: 40 })
  .map((cps) => String.fromCodePoint(...cps));

describe('text made safe for the WinAnsi standard fonts', () => {
  it.each([
    ['plain upper-case ECHO names are untouched', 'ACME CHEMICAL WORKS', 'ACME CHEMICAL WORKS', false],
    ['Latin-1 accents are kept', 'Café Niño Ñandú Müller', 'Café Niño Ñandú Müller', false],
    ['decomposed accents are composed, then kept', 'Cafe\u0301', 'Café', false],
    ['accents outside WinAnsi are transliterated', 'Łódź Gdańsk Kőbánya', 'Lódz Gdansk Kobánya', false],
    ['typographic dashes and quotes WinAnsi has are kept', 'A – B “C” ‘D’ E…', 'A – B “C” ‘D’ E…', false],
    ['control characters and line breaks become single spaces', 'LINE ONE\r\nLINE\tTWO\u0000', 'LINE ONE LINE TWO', false],
    ['CJK becomes one ? per character and is flagged', '東京化学 PLANT', '???? PLANT', true],
    ['an emoji becomes ? and its variation selector vanishes', 'FACTORY 🏭\uFE0F', 'FACTORY ?', true],
    ['a ZWJ emoji sequence keeps one ? per pictograph, none for the joiner', '👩‍🔬 LAB', '?? LAB', true],
    ['a lone surrogate half becomes ?', 'BAD \uD800 HALF', 'BAD ? HALF', true],
    ['the empty string stays empty', '', '', false],
  ])('%s', (_name, raw, text, lossy) => {
    expect(safe(raw)).toEqual({ text, lossy });
  });

  it('any string at all comes out drawable: pdf-lib can measure and encode every result', () => {
    fc.assert(
      fc.property(anyText, (raw) => {
        const { text } = safe(raw);
        expect(() => font.encodeText(text)).not.toThrow();
        expect(font.widthOfTextAtSize(text, 10)).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 300 },
    );
  });
});

describe('wrapping to a width', () => {
  it('no wrapped line is wider than the box, and no character is lost except the spaces between lines', () => {
    const word = fc.stringMatching(/^[A-Za-z0-9&.,-]{1,40}$/);
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 30 }), fc.integer({ min: 30, max: 400 }), (words, width) => {
        const text = words.join(' ');
        const lines = wrapText(text, metrics, 10, width);
        for (const l of lines) expect(font.widthOfTextAtSize(l, 10)).toBeLessThanOrEqual(width);
        expect(lines.join('').replaceAll(' ', '')).toBe(text.replaceAll(' ', ''));
      }),
      { numRuns: 200 },
    );
  });

  it('breaks exactly where measuring every candidate line with pdf-lib would, kerned pairs and Latin-1 included', () => {
    // the wrap as it was written before the tables: each candidate line measured whole by pdf-lib
    const measured = (text: string, size: number, max: number) => {
      const lines: string[] = [];
      let line = '';
      for (const word of text.split(' ').filter(Boolean)) {
        const candidate = line ? `${line} ${word}` : word;
        if (font.widthOfTextAtSize(candidate, size) <= max) line = candidate;
        else {
          if (line) lines.push(line);
          line = word;
          while (font.widthOfTextAtSize(line, size) > max) {
            let n = 1;
            while (n + 1 < line.length && font.widthOfTextAtSize(line.slice(0, n + 1), size) <= max) n++;
            lines.push(line.slice(0, n));
            line = line.slice(n);
          }
        }
      }
      if (line) lines.push(line);
      return lines.length ? lines : [''];
    };
    const word = fc.stringMatching(/^[AVWTYLPFovwy.,'r-]{1,6}$|^[A-Za-zÀ-ÿ0-9&.,-]{1,25}$/);
    fc.assert(
      fc.property(fc.array(word, { maxLength: 25 }), fc.constantFrom(6.5, 7.5, 9, 10, 18), fc.integer({ min: 10, max: 500 }), (words, size, width) => {
        const text = words.join(' ');
        expect(wrapText(text, metrics, size, width)).toEqual(measured(text, size, width));
      }),
      { numRuns: 500 },
    );
  });

  it('a 300-character name without spaces is cut into pieces that fit', () => {
    const lines = wrapText('X'.repeat(300), metrics, 19, 330);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.join('')).toBe('X'.repeat(300));
  });

  it('clamping to two lines ends the second with an ellipsis and keeps it inside the width', () => {
    const lines = clampLines('ONE TWO THREE FOUR FIVE SIX SEVEN EIGHT NINE TEN', metrics, 10, 60, 2);
    expect(lines).toHaveLength(2);
    expect(lines[1]!.endsWith('…')).toBe(true);
    expect(font.widthOfTextAtSize(lines[1]!, 10)).toBeLessThanOrEqual(60);
  });

  it('text that fits is not clamped', () => {
    expect(clampLines('SHORT NAME', metrics, 10, 300, 2)).toEqual(['SHORT NAME']);
  });
});
