import { readFileSync } from 'node:fs';
import { writeArrayFile } from './array-file';
import { ARRAY_TYPES, FACILITY_ARRAYS, fixedArrayNames, textNames, type ArrayType } from '../../area/spatial-index';
import { AREA_CARRIED, type AreaColumns } from '../declared-columns';

/**
 * The collected columns (./spatial-collector.ts) as a temp file, handed from the ingest process to
 * the process that lays them out (./spatial-layout-process.ts), so the layout runs without the
 * load's heap. Private to one ingest: written and read by the same build of the code, removed when
 * the layout is done. Layout: 8 bytes magic, a uint32 (little-endian) header length, the header as
 * JSON, then each array at an 8-byte-aligned offset in the machine's order: every per-facility
 * array and text the area carries (../declared-columns.ts), by name.
 */
const MAGIC = 'FCSCOLS3';

type View = ArrayBufferView & { length: number };
type Header = { count: number; states: string[]; words: Record<string, string[]>; idOther: [number, string][]; arrays: Record<string, [number, number]> };

/** Every array of the file with its element type: fixed-width ones, then each text's offsets and bytes. */
const TYPES: Record<string, ArrayType> = Object.fromEntries([
  ...FACILITY_ARRAYS,
  ...AREA_CARRIED.fixed.map(([name, type]) => [name, ARRAY_TYPES[type]] as const),
  ...textNames({ carried: AREA_CARRIED }).flatMap((t) => [[`${t}Start`, Uint32Array], [`${t}Bytes`, Uint8Array]] as const),
]);
const ARRAYS = Object.keys(TYPES);

/** The used part of each array (the collector's arrays have room to grow). */
function usedArrays(c: AreaColumns): Record<string, View> {
  const n = c.count;
  const a = c as unknown as Record<string, View & { subarray(from: number, to?: number): View }>;
  const out: Record<string, View> = {};
  for (const name of fixedArrayNames(c)) out[name] = a[name]!.subarray(0, n);
  for (const t of textNames(c)) {
    const start = a[`${t}Start`] as unknown as Uint32Array;
    out[`${t}Start`] = start.subarray(0, n + 1);
    out[`${t}Bytes`] = a[`${t}Bytes`]!.subarray(0, start[n] ?? 0);
  }
  return out;
}

/** Writes `c` to `path` (array by array, no copy in memory). The caller owns the name: a temp name it removes. */
export function writeColumnsFile(path: string, c: AreaColumns): void {
  const words = Object.fromEntries(AREA_CARRIED.words.map((w) => [w, (c as unknown as Record<string, string[]>)[w]!]));
  writeArrayFile(path, MAGIC, ARRAYS, usedArrays(c), (arrays) => ({ count: c.count, states: c.states, words, idOther: [...c.idOther], arrays }) satisfies Header);
}

/** The columns in the file at `path`, every array a view over its memory mapping (file-backed, not heap). */
export function readColumnsFile(path: string): AreaColumns {
  let bytes: Uint8Array;
  try {
    bytes = Bun.mmap(path, { shared: false });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new Error(`no columns file at ${path}`);
    bytes = new Uint8Array(readFileSync(path));
  }
  if (bytes.length < 12 || new TextDecoder().decode(bytes.subarray(0, 8)) !== MAGIC) throw new Error(`${path} is not a columns file`);
  const headerLength = new DataView(bytes.buffer, bytes.byteOffset, 12).getUint32(8, true);
  const h = JSON.parse(new TextDecoder().decode(bytes.subarray(12, 12 + headerLength))) as Header;
  const c: Record<string, unknown> = { count: h.count, states: h.states, idOther: new Map(h.idOther), carried: AREA_CARRIED };
  for (const name of ARRAYS) {
    const T = TYPES[name]!;
    const [offset, length] = h.arrays[name] ?? [-1, -1];
    if (offset < 0 || offset % T.BYTES_PER_ELEMENT !== 0 || offset + length * T.BYTES_PER_ELEMENT > bytes.length) throw new Error(`${path}: array ${name} missing or truncated`);
    c[name] = new T(bytes.buffer as ArrayBuffer, bytes.byteOffset + offset, length);
  }
  for (const w of AREA_CARRIED.words) c[w] = h.words[w] ?? [''];
  const cols = c as unknown as AreaColumns;
  const consistent = cols.lat.length === cols.count && textNames(cols).every((t) => {
    const start = c[`${t}Start`] as Uint32Array, text = c[`${t}Bytes`] as Uint8Array;
    return start.length === cols.count + 1 && start[cols.count] === text.length;
  });
  if (!consistent) throw new Error(`${path}: inconsistent counts`);
  return cols;
}
