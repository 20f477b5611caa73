import { describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { inflateSync } from 'node:zlib';
import { rgb } from 'pdf-lib';
import { AsciiBuffer, num, zlibDeflate } from '../../src/reports/content-bytes';
import { COLORS, Flow, PAGE } from '../../src/reports/layout';
import { circlePath, PageContent } from '../../src/reports/page-content';
import { pdfText, qpdfCheck } from './pdf-tools';

const count = (s: string, part: string) => s.split(part).length - 1;

describe('content stream bytes', () => {
  it('a deflated stream is zlib data (header and Adler-32 checked on the way back) that inflates to the operators', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 5000 }), fc.integer({ min: 0, max: 3 }), (bytes, repeat) => {
        const input = new Uint8Array(Array.from({ length: repeat + 1 }, () => [...bytes]).flat());
        const z = zlibDeflate(input);
        expect(((z[0]! << 8) | z[1]!) % 31).toBe(0);
        expect(new Uint8Array(inflateSync(z))).toEqual(input);
      }),
      { numRuns: 100 },
    );
  });

  it('a corrupted checksum is refused by zlib, so the checksum written is the real one', () => {
    const z = zlibDeflate(new Uint8Array(Buffer.from('BT /F1 9 Tf (HELLO) Tj ET')));
    z[z.length - 1]! ^= 1;
    expect(() => inflateSync(z)).toThrow();
  });

  it('numbers are written to a thousandth of a point, never with an exponent or as -0', () => {
    expect(num(12)).toBe('12');
    expect(num(595.2756)).toBe('595.276');
    expect(num(-0.0001)).toBe('0');
    expect(num(1e-9)).toBe('0');
    expect(num(-3.4)).toBe('-3.4');
    fc.assert(
      fc.property(fc.double({ min: -2000, max: 2000, noNaN: true }), (n) => {
        expect(num(n)).toMatch(/^-?\d+(\.\d{1,3})?$/);
        expect(num(n)).toBe(String(Math.round(n * 1000) / 1000 + 0));
      }),
      { numRuns: 2000 },
    );
  });

  it('the byte buffer grows past its first size and keeps every byte in order', () => {
    const b = new AsciiBuffer();
    const parts = Array.from({ length: 3000 }, (_, i) => `${i} 0 m ${i} 10 l S\n`);
    for (const p of parts) b.write(p);
    expect(Buffer.from(b.view()).toString('latin1')).toBe(parts.join(''));
  });
});

describe('a page of operators', () => {
  it('consecutive lines of text share one text object and set the font and colour only when they change', () => {
    const page = new PageContent();
    page.text('(A)', 'F1', 9, 10, 700, COLORS.ink);
    page.text('(B)', 'F1', 9, 10, 690, COLORS.ink);
    page.text('(C)', 'F2', 9, 10, 680, COLORS.muted);
    page.rect(0, 0, 10, 10, { fill: COLORS.panel });
    page.text('(D)', 'F2', 9, 10, 670, COLORS.muted);
    const ops = page.operators();
    expect(count(ops, 'BT')).toBe(2);
    expect(count(ops, 'ET')).toBe(2);
    expect(count(ops, ' Tf')).toBe(2);
    // ink, muted, the panel's fill, muted again after it
    expect(count(ops, ' rg')).toBe(4);
    // each line placed by its offset from the one before, the first from the text object's origin
    expect(ops).toContain('10 700 Td (A) Tj\n');
    expect(ops).toContain('0 -10 Td (B) Tj\n');
    expect(ops).toContain('10 670 Td (D) Tj\n');
    expect(ops.indexOf('0 0 10 10 re f')).toBeGreaterThan(ops.indexOf('ET'));
  });

  it('property: the offsets of a text object add up to each line\'s position rounded to the thousandth', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.double({ min: -100, max: 800, noNaN: true }), fc.double({ min: -100, max: 800, noNaN: true })), { minLength: 1, maxLength: 30 }), (points) => {
        const page = new PageContent();
        for (const [x, y] of points) page.text('(T)', 'F1', 9, x, y, COLORS.ink);
        const moves = [...page.operators().matchAll(/(-?[\d.]+) (-?[\d.]+) Td/g)].map((m) => [Number(m[1]), Number(m[2])]);
        let [x, y] = [0, 0];
        moves.forEach(([dx, dy], i) => {
          [x, y] = [Math.round((x + dx!) * 1000), Math.round((y + dy!) * 1000)].map((v) => v / 1000) as [number, number];
          expect([x, y]).toEqual([Number(num(points[i]![0])), Number(num(points[i]![1]))]);
        });
        expect(moves).toHaveLength(points.length);
      }),
      { numRuns: 300 },
    );
  });

  it('a colour equal in value but another object is not written twice', () => {
    const page = new PageContent();
    page.text('(A)', 'F1', 9, 0, 0, rgb(0.5, 0.5, 0.5));
    page.text('(B)', 'F1', 9, 0, 0, rgb(0.5, 0.5, 0.5));
    expect(count(page.operators(), '0.5 0.5 0.5 rg')).toBe(1);
  });

  it('strokes set width and dash only on change, and a solid line after a dashed one resets the dash', () => {
    const page = new PageContent();
    page.circle(100, 100, 20, { stroke: COLORS.faint, width: 0.6, dash: [3, 2] });
    page.circle(100, 100, 30, { stroke: COLORS.faint, width: 0.6, dash: [3, 2] });
    page.line(0, 0, 10, 0, 0.6, COLORS.faint);
    const ops = page.operators();
    expect(count(ops, ' w\n')).toBe(1);
    expect(count(ops, '[3 2] 0 d')).toBe(1);
    expect(count(ops, '[] 0 d')).toBe(1);
    expect(ops.indexOf('[] 0 d')).toBeLessThan(ops.indexOf('0 0 m 10 0 l S'));
  });

  it('a circle is its radius\'s path moved into place, inside q ... Q, filled and stroked as asked', () => {
    const page = new PageContent();
    page.circle(50, 60, 3.4, { fill: COLORS.good, stroke: COLORS.white, width: 0.6 });
    page.circle(70, 80, 3.4, { fill: COLORS.good });
    const ops = page.operators();
    expect(ops).toContain(`q 1 0 0 1 50 60 cm ${circlePath(3.4)} B Q`);
    expect(ops).toContain(`q 1 0 0 1 70 80 cm ${circlePath(3.4)} f Q`);
    // four quarter curves from the left point, back to it
    expect(circlePath(2)).toMatch(/^-2 0 m( [-\d. ]+ c){4} h$/);
    expect(circlePath(2).split(' c')[3]!.trim().endsWith('-2 0')).toBe(true);
  });

  it('the deflated stream holds exactly the operators', () => {
    const page = new PageContent();
    page.text('(X)', 'F1', 8, 1, 2, COLORS.ink);
    page.polygon([[0, 0], [6, 16], [0, 12]], { fill: COLORS.navy, stroke: COLORS.navy, width: 0.5 });
    expect(inflateSync(page.deflated()).toString('latin1')).toBe(page.operators());
  });
});

describe('a document written through Flow', () => {
  it('is sound to qpdf and its text, delimiters, Latin-1 and WinAnsi extras included, reads back', async () => {
    const flow = await Flow.create(() => {});
    flow.text('PLAIN (PARENS) BACK\\SLASH', PAGE.margin, 700, { size: 10 });
    flow.text('Café Müller – “quoted” €12…', PAGE.margin, 680, { size: 10, bold: true });
    flow.paragraph('A paragraph long enough to wrap onto a second line of this page, to show wrapping writes lines in order. '.repeat(3), { size: 9, italic: true });
    flow.newPage();
    flow.text('Right edge', PAGE.width - PAGE.margin, 700, { size: 10 }, 'right');
    const pdf = await flow.finish((f, page, i, n) => f.text(`Page ${i + 1} of ${n}`, PAGE.margin, 40, { size: 8 }, 'left', page));
    expect(qpdfCheck(pdf).ok).toBe(true);
    const text = pdfText(pdf);
    expect(text).toContain('PLAIN (PARENS) BACK\\SLASH');
    expect(text).toContain('Café Müller – “quoted” €12…');
    expect(text).toContain('to show wrapping writes lines in order.');
    expect(text).toContain('Right edge');
    expect(text).toContain('Page 1 of 2');
    expect(text).toContain('Page 2 of 2');
  });
});
