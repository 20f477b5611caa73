/** '', '.001' ... '.999', trailing zeros dropped ('.5', not '.500'). */
const FRACTIONS = Array.from({ length: 1000 }, (_, i) => (i === 0 ? '' : `.${String(i).padStart(3, '0').replace(/0+$/, '')}`));

/**
 * A number as a content stream writes it: to a thousandth of a point (1/72,000 in, far below what
 * a printer or a screen resolves), without an exponent, -0 as 0.
 */
export function num(n: number): string {
  // integer thousandths and a table of fractions: half the time of formatting the double itself
  const r = Math.round(n * 1000);
  const m = r < 0 ? -r : r;
  const whole = Math.floor(m / 1000);
  return (r < 0 ? '-' : '') + whole + FRACTIONS[m - whole * 1000];
}

/**
 * A growing byte buffer for operator text, which is ASCII (text is written as WinAnsi literal
 * strings, bytes above 0x7E as octal escapes). Written byte by byte rather than as one string
 * built by `+=`: flattening that string for the deflater, with the garbage of a long render
 * around it, cost about as much as deflating it.
 */
export class AsciiBuffer {
  private bytes = new Uint8Array(16384);
  private length = 0;

  write(s: string): void {
    if (this.length + s.length > this.bytes.length) {
      const grown = new Uint8Array(Math.max(2 * this.bytes.length, this.length + s.length));
      grown.set(this.bytes.subarray(0, this.length));
      this.bytes = grown;
    }
    const b = this.bytes;
    let n = this.length;
    for (let i = 0; i < s.length; i++) b[n++] = s.charCodeAt(i);
    this.length = n;
  }

  /** The bytes written so far (a view, not a copy). */
  view(): Uint8Array<ArrayBuffer> {
    return this.bytes.subarray(0, this.length);
  }
}

/**
 * `bytes` in the zlib format a FlateDecode stream holds (RFC 1950: a header, raw deflate, the
 * Adler-32 of the input). Bun's native deflate, libdeflate at its fastest level: far faster than
 * zlib's default level for slightly more bytes on a report's pages, and far faster than
 * node:zlib's `deflateSync`, which builds a stream object per call.
 */
export function zlibDeflate(bytes: Uint8Array<ArrayBuffer>): Uint8Array {
  const raw = Bun.deflateSync(bytes, { library: 'libdeflate', level: 1 });
  const out = new Uint8Array(raw.length + 6);
  out[0] = 0x78; // deflate, 32 KiB window
  out[1] = 0x01; // fastest level; makes the header a multiple of 31, as RFC 1950 requires
  out.set(raw, 2);
  new DataView(out.buffer).setUint32(raw.length + 2, Number(Bun.hash.adler32(bytes)));
  return out;
}
