import { closeSync, openSync, writeSync } from 'node:fs';

/**
 * The layout both of the area's fixed-width files share (the release's `.area`, ./spatial-file.ts, and
 * the ingest's columns hand-over, ./spatial-columns-file.ts): 8 bytes of magic, a uint32
 * (little-endian) header length, the header as JSON padded with spaces, then each array at an
 * 8-byte-aligned offset, so a reader maps the file and views every array in place.
 */

/** Where each array starts in the file and how many elements it has, as the header records them. */
export type ArrayOffsets = Record<string, [offset: number, length: number]>;

type View = ArrayBufferView & { length: number };

const align8 = (n: number) => (n + 7) & ~7;

/**
 * Writes `views` (in `names` order) to exactly `path`, array by array (no second copy in memory), under
 * the header `headerOf` makes from their offsets. Not atomic: the caller owns the name.
 */
export function writeArrayFile<N extends string>(
  path: string, magic: string, names: readonly N[], views: Record<N, View>, headerOf: (arrays: ArrayOffsets) => object,
): void {
  const arrays: ArrayOffsets = {};
  const draft = (base: number) => {
    let at = base;
    for (const name of names) {
      arrays[name] = [at, views[name].length];
      at = align8(at + views[name].byteLength);
    }
    return new TextEncoder().encode(JSON.stringify(headerOf(arrays)));
  };
  // Offsets depend on the header's length, which depends on the offsets' digits: size it, then leave room.
  const base = align8(12 + draft(0).length + 256);
  const json = draft(base);
  if (12 + json.length > base) throw new Error(`${magic} header grew past its room`);
  const head = new Uint8Array(base).fill(0x20);
  head.set(new TextEncoder().encode(magic), 0);
  new DataView(head.buffer).setUint32(8, json.length, true);
  head.set(json, 12);
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, head);
    let at = base;
    for (const name of names) {
      const a = views[name];
      const [offset] = arrays[name]!;
      if (offset > at) writeSync(fd, new Uint8Array(offset - at));
      writeSync(fd, new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
      at = offset + a.byteLength;
    }
  } finally {
    closeSync(fd);
  }
}
