import { describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { JsonBytes, jsonPiece } from '../../src/shared/json-bytes';

const utf8 = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array) => Buffer.from(b).toString('utf8');

/** What one `utf8` call writes for `bytes` (with junk around them, so the offsets matter). */
function written(bytes: Uint8Array): Uint8Array {
  const src = new Uint8Array(bytes.length + 6);
  src.set([0x41, 0x22, 0x5c], 0);
  src.set(bytes, 3);
  src.set([0x0a, 0xff, 0x42], 3 + bytes.length);
  const out = new JsonBytes();
  out.utf8(src, 3, 3 + bytes.length);
  return out.done();
}

describe('JSON written as bytes', () => {
  it('a string held as UTF-8 comes out as JSON.stringify of the string, encoded, for any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(text(written(utf8(s)))).toBe(JSON.stringify(s));
      }),
      { numRuns: 1000 },
    );
  });

  it('escapes quotes, backslashes and every control character as JSON.stringify does', () => {
    const all = Array.from({ length: 0x80 }, (_, c) => String.fromCharCode(c)).join('') + 'a"b\\c';
    expect(text(written(utf8(all)))).toBe(JSON.stringify(all));
    expect(text(written(utf8('\x1f\x00\x7f')))).toBe('"\\u001f\\u0000\x7f"');
  });

  it('bytes that are not valid UTF-8 come out as the decoded text would (U+FFFD), never raw', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (bytes) => {
        const decoded = Buffer.from(bytes).toString('utf8');
        expect(Buffer.from(written(bytes)).equals(Buffer.from(utf8(JSON.stringify(decoded))))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('a number kept with its digit count comes out as its zero-padded digits, quoted', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999_999_999_999_999 }), fc.nat(15), (n, extra) => {
        const width = Math.min(15, String(n).length + extra);
        const out = new JsonBytes();
        out.paddedDigits(n, width);
        expect(text(out.done())).toBe(JSON.stringify(String(n).padStart(width, '0')));
      }),
      { numRuns: 3000 },
    );
  });

  it('pieces, text and raw JSON follow each other in order, and each answer is a buffer of its own', () => {
    const first = new JsonBytes();
    first.bytes(jsonPiece('{"a":'));
    first.text('é "x"');
    first.ascii(',"b":');
    first.raw(JSON.stringify([1, 'ü']));
    first.ascii('}');
    const a = first.done();
    expect(JSON.parse(text(a))).toEqual({ a: 'é "x"', b: [1, 'ü'] });
    // the next writer reuses the scratch buffer: the first answer must not change
    const second = new JsonBytes();
    second.ascii('"' + 'z'.repeat(200_000) + '"');
    const b = second.done();
    expect(text(a)).toBe('{"a":"é \\"x\\"","b":[1,"ü"]}');
    expect(b.length).toBe(200_002);
  });
});
