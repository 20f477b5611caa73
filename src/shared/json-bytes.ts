/**
 * JSON written straight to UTF-8 bytes, for an answer of hundreds of KB whose bulk already sits in
 * byte arrays (a site report's names and addresses): no string per field, no object per item, no
 * stringify and no encoding of the whole text. Each method writes exactly what `JSON.stringify` of
 * the same value, encoded as UTF-8, would (tested against it byte for byte).
 *
 * Writing goes to one scratch buffer kept between answers and `done` copies the result out: on a
 * machine where a fresh page costs ~20 µs to fault in (docs/benchmarks.md), writing into memory
 * already touched, then one copy, faults in only the answer's own pages.
 */

// Kept while no larger than this; a larger answer's buffer is let go after it.
const KEEP_BYTES = 8 << 20;
let spare: Uint8Array | null = null;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
// JSON.stringify's short escapes of control characters (\b \t \n \f \r); the rest are \u00xx
const SHORT_ESCAPE: Record<number, number> = { 0x08: 0x62, 0x09: 0x74, 0x0a: 0x6e, 0x0c: 0x66, 0x0d: 0x72 };
const HEX = '0123456789abcdef';
// Bytes a JSON string holds as they are: ASCII but the quote, the backslash and control characters
const PLAIN = new Uint8Array(256).map((_, c) => (c >= 0x20 && c < 0x80 && c !== QUOTE && c !== BACKSLASH ? 1 : 0));

/** Writes the escape of ASCII byte `c` (a quote, a backslash or a control character) at `at`; returns the end. */
function escapeAt(b: Uint8Array, at: number, c: number): number {
  b[at++] = BACKSLASH;
  if (c === QUOTE || c === BACKSLASH) b[at++] = c;
  else if (SHORT_ESCAPE[c] !== undefined) b[at++] = SHORT_ESCAPE[c];
  else {
    b[at++] = 0x75; // u
    b[at++] = 0x30;
    b[at++] = 0x30;
    b[at++] = HEX.charCodeAt(c >> 4);
    b[at++] = HEX.charCodeAt(c & 15);
  }
  return at;
}
const encoder = new TextEncoder();

export class JsonBytes {
  private buf: Uint8Array;
  private at = 0;

  /** A writer over the kept scratch buffer (one writer at a time: writing is synchronous). */
  constructor() {
    this.buf = spare ?? new Uint8Array(1 << 16);
    spare = null;
  }

  /** Room for `n` more bytes. */
  private reserve(n: number): void {
    if (this.at + n <= this.buf.length) return;
    const more = new Uint8Array(Math.max(this.buf.length * 2, this.at + n));
    more.set(this.buf.subarray(0, this.at));
    this.buf = more;
  }

  /** A piece of JSON text known to be ASCII: punctuation, keys, numbers. */
  ascii(s: string): void {
    this.reserve(s.length);
    const b = this.buf;
    let at = this.at;
    for (let k = 0; k < s.length; k++) b[at++] = s.charCodeAt(k);
    this.at = at;
  }

  /** Bytes of JSON text written before (a constant piece, a cached array). */
  bytes(u8: Uint8Array): void {
    this.reserve(u8.length);
    const b = this.buf;
    let at = this.at;
    // byte by byte: these pieces are a few bytes, and `set` costs a native call (~200 ns) each
    for (let k = 0; k < u8.length; k++) b[at++] = u8[k]!;
    this.at = at;
  }

  /** Any JSON text (what JSON.stringify returned), encoded. */
  raw(json: string): void {
    // a UTF-16 unit is at most 3 UTF-8 bytes
    this.reserve(json.length * 3);
    this.at += encoder.encodeInto(json, this.buf.subarray(this.at)).written;
  }

  /** A string value. */
  text(s: string): void {
    this.raw(JSON.stringify(s));
  }

  /**
   * The string value held as UTF-8 in `src[from..to)`, escaped as JSON.stringify escapes. ASCII
   * (nearly every name and address) is copied byte by byte; anything else is decoded and written as
   * `text`, so an invalid sequence comes out as the decoder's U+FFFD, as it would from a decoded string.
   */
  utf8(src: Uint8Array, from: number, to: number): void {
    // the longest escape, \u00xx, is 6 bytes for 1
    this.reserve(2 + 6 * (to - from));
    const b = this.buf;
    const start = this.at;
    let at = start;
    b[at++] = QUOTE;
    for (let k = from; k < to; k++) {
      const c = src[k]!;
      if (PLAIN[c] === 1) {
        b[at++] = c;
        continue;
      }
      if (c >= 0x80) {
        this.at = start;
        this.decoded(src, from, to);
        return;
      }
      at = escapeAt(b, at, c);
    }
    b[at++] = QUOTE;
    this.at = at;
  }

  /** `utf8`'s text that is not all ASCII: decoded, then written as `text` (kept out of `utf8`'s loop). */
  private decoded(src: Uint8Array, from: number, to: number): void {
    this.text(Buffer.from(src.buffer, src.byteOffset, src.byteLength).toString('utf8', from, to));
  }

  /** A non-negative integer below 10^15 as a string value of `width` digits, zero-padded (a registry ID kept as a number). */
  paddedDigits(n: number, width: number): void {
    this.reserve(width + 2);
    const b = this.buf;
    const at = this.at;
    b[at] = QUOTE;
    // in two halves below 2^31, so the digits come from integer arithmetic (a double's % is a libm call)
    let hi = Math.floor(n / 1e8) | 0;
    let lo = (n - hi * 1e8) | 0;
    for (let k = width; k >= 1; k--) {
      if (width - k < 8) {
        b[at + k] = 48 + (lo % 10);
        lo = (lo / 10) | 0;
      } else {
        b[at + k] = 48 + (hi % 10);
        hi = (hi / 10) | 0;
      }
    }
    b[at + width + 1] = QUOTE;
    this.at = at + width + 2;
  }

  /** The bytes written, as a buffer of their own; the scratch buffer is kept for the next writer. */
  done(): Uint8Array {
    const out = this.buf.slice(0, this.at);
    if (this.buf.length <= KEEP_BYTES) spare = this.buf;
    this.at = 0;
    return out;
  }
}

/** UTF-8 of JSON text, for pieces written many times. */
export function jsonPiece(json: string): Uint8Array {
  return encoder.encode(json);
}
