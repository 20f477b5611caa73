/**
 * The spatial index's texts: facility names, and addresses (street, city and ZIP), each kept as one
 * UTF-8 byte array with an offset per facility (`nameStart`/`nameBytes`, `addrStart`/`addrBytes`),
 * so an area answer or a site report reads them with no SQLite read and no string per facility
 * held in memory.
 */

/** Appends texts (names, address entries) as UTF-8, returning each one's end offset; grows the byte array as needed. */
export class TextBytes {
  bytes = new Uint8Array(1 << 16);
  length = 0;
  private readonly encoder = new TextEncoder();
  /** Appends `name`; returns the offset just past it. */
  push(name: string): number {
    // A UTF-8 character takes at most 3 bytes per UTF-16 unit.
    if (this.length + name.length * 3 > this.bytes.length) {
      const more = new Uint8Array(Math.max(this.bytes.length * 2, this.length + name.length * 3));
      more.set(this.bytes.subarray(0, this.length));
      this.bytes = more;
    }
    // ASCII (nearly every name) byte by byte, with no view object per name; the rest through the encoder.
    let at = this.length;
    for (let k = 0; k < name.length; k++) {
      const ch = name.charCodeAt(k);
      if (ch > 127) {
        this.length += this.encoder.encodeInto(name, this.bytes.subarray(this.length)).written;
        return this.length;
      }
      this.bytes[at++] = ch;
    }
    this.length = at;
    return this.length;
  }
  /** The bytes written, trimmed. */
  done(): Uint8Array {
    return this.bytes.slice(0, this.length);
  }
}

// Buffer views of the byte arrays: `toString` of a range decodes with no view object per call, about
// half the time of TextDecoder over a subarray (a site report decodes four texts per finding)
const views = new WeakMap<Uint8Array, Buffer>();
function viewOf(bytes: Uint8Array): Buffer {
  let b = views.get(bytes);
  if (b === undefined) views.set(bytes, (b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)));
  return b;
}

/**
 * Readers of one index's names and addresses, for a caller that reads many (the site report): the
 * byte arrays' views are looked up once, not per text.
 */
export function textsOf(s: { nameStart: Uint32Array; nameBytes: Uint8Array; addrStart: Uint32Array; addrBytes: Uint8Array }) {
  const names = viewOf(s.nameBytes);
  const addresses = viewOf(s.addrBytes);
  return {
    name: (i: number): string => names.toString('utf8', s.nameStart[i]!, s.nameStart[i + 1]!),
    address: (i: number) => splitAddress(addresses.toString('utf8', s.addrStart[i]!, s.addrStart[i + 1]!)),
  };
}

/** A Buffer view of `bytes` (made once per array): `toString` of a range decodes with no view object per call. */
export function bufferOf(bytes: Uint8Array): Buffer {
  return viewOf(bytes);
}

/** A reader of texts kept as names are (`start` offsets, `bytes`): a carried text (./spatial-index.ts Carried). */
export function textReader(start: Uint32Array, bytes: Uint8Array): (i: number) => string {
  const b = viewOf(bytes);
  return (i) => b.toString('utf8', start[i]!, start[i + 1]!);
}

/** Name of the facility at position i (one read; a caller reading many takes textsOf). */
export function nameAt(s: { nameStart: Uint32Array; nameBytes: Uint8Array }, i: number): string {
  return viewOf(s.nameBytes).toString('utf8', s.nameStart[i]!, s.nameStart[i + 1]!);
}

/** Between the street, city and ZIP of an address entry: a control character (addressEntry turns any in a field into a space). */
export const ADDRESS_SEPARATOR = '\x1f';

/** One address entry: street, city and ZIP. */
export function addressEntry(street: string, city: string, zip: string): string {
  const clean = (v: string) => (v.includes(ADDRESS_SEPARATOR) ? v.replaceAll(ADDRESS_SEPARATOR, ' ') : v);
  return `${clean(street)}${ADDRESS_SEPARATOR}${clean(city)}${ADDRESS_SEPARATOR}${clean(zip)}`;
}

/** An address entry's street, city and ZIP: one decode, then substrings (cheaper than a decode per part). */
function splitAddress(text: string): { street: string; city: string; zip: string } {
  const a = text.indexOf(ADDRESS_SEPARATOR);
  if (a < 0) return { street: text, city: '', zip: '' };
  const b = text.indexOf(ADDRESS_SEPARATOR, a + 1);
  return b < 0 ? { street: text.slice(0, a), city: text.slice(a + 1), zip: '' } : { street: text.slice(0, a), city: text.slice(a + 1, b), zip: text.slice(b + 1) };
}

const SEPARATOR_BYTE = ADDRESS_SEPARATOR.charCodeAt(0);

/**
 * Where an address entry's part that starts at `from` ends, in its bytes `bytes[from..to)`: at the
 * next separator, else at `to` (a part missing from the end is empty, as splitAddress has it). For a
 * reader of the bytes themselves (the site report's JSON): street = [from, a), city = [a + 1, b),
 * ZIP = [b + 1, to), each start capped at `to`.
 */
export function addressPartEnd(bytes: Uint8Array, from: number, to: number): number {
  let k = from;
  while (k < to && bytes[k] !== SEPARATOR_BYTE) k++;
  return k;
}

/**
 * Variable-length entries (names, addresses) in the order `perm`: entry k of the result is entry
 * perm[k] of `srcBytes`; the new offsets are written to `start`. Byte by byte, not
 * `set(subarray(...))`: a view object per facility swelled the national layout's RSS.
 */
export function permuteTexts(perm: Uint32Array, srcStart: Uint32Array, srcBytes: Uint8Array, start: Uint32Array): Uint8Array {
  // perm holds every entry once: the result is as long as all of them
  const out = new Uint8Array(srcStart[perm.length] ?? 0);
  for (let k = 0, at = 0; k < perm.length; k++) {
    const p = perm[k]!;
    for (let b = srcStart[p]!, to = srcStart[p + 1]!; b < to; b++) out[at++] = srcBytes[b]!;
    start[k + 1] = at;
  }
  return out;
}
