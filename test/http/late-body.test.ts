import { describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { lateBody, PLAIN_BODY_MAX } from '../../src/wire/late-body';

describe("a late answer's body", () => {
  it('is the text or bytes themselves up to PLAIN_BODY_MAX bytes, and one chunk beyond, read back as the same UTF-8 either way', async () => {
    const piece = fc.constantFrom('a', '"', 'é', '東', '😀', '{"k":1}', ' ');
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { maxLength: 9000 }), async (pieces) => {
        const text = pieces.join('');
        const bytes = Buffer.from(text, 'utf8');
        for (const body of [text, new Uint8Array(bytes)]) {
          const out = lateBody(body);
          expect(out instanceof ReadableStream).toBe(bytes.length > PLAIN_BODY_MAX);
          expect(Buffer.from(await new Response(out).arrayBuffer()).equals(bytes)).toBe(true);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('counts bytes, not characters, at the limit: a text of fewer characters but more bytes goes as one chunk', () => {
    const text = 'é'.repeat(PLAIN_BODY_MAX / 2 + 1);
    expect(text.length).toBeLessThanOrEqual(PLAIN_BODY_MAX);
    expect(lateBody(text) instanceof ReadableStream).toBe(true);
    expect(lateBody('é'.repeat(PLAIN_BODY_MAX / 2))).toBe('é'.repeat(PLAIN_BODY_MAX / 2));
  });
});

describe("a late answer's body in parts", () => {
  it('is the parts in order, joined and sent plain up to PLAIN_BODY_MAX bytes in all, one chunk per part beyond', async () => {
    await fc.assert(
      // sizes drawn evenly (fast-check's own arrays are mostly short), each part's bytes telling it apart
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 9000 }), { minLength: 1, maxLength: 4 }), async (sizes) => {
        const parts = sizes.map((n, k) => Uint8Array.from({ length: n }, (_, i) => (i * 7 + k * 31) & 0xff));
        const whole = Buffer.concat(parts);
        const out = lateBody(parts);
        expect(out instanceof ReadableStream).toBe(whole.length > PLAIN_BODY_MAX);
        expect(Buffer.from(await new Response(out).arrayBuffer()).equals(whole)).toBe(true);
      }),
      { numRuns: 60 },
    );
  });
});
