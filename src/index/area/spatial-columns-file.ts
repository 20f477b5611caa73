import { readFileSync } from 'node:fs';
import { writeArrayFile } from './array-file';
import { allocateColumns, ARRAY_TYPES, FACILITY_ARRAYS, fixedArrayNames, textNames, type ArrayType, type Carried, type SpatialColumns } from '../../area/spatial-index';
import { AREA_CARRIED, type AreaColumns, type UnplacedColumns } from '../declared-columns';
import { UNPLACED_CARRIED } from './unplaced';

/**
 * The collected columns (./spatial-collector.ts) as a temp file, handed from the ingest process to
 * the process that lays them out (./spatial-layout-process.ts), so the layout runs without the
 * load's heap. Private to one ingest: written and read by the same build of the code, removed when
 * the layout is done. Layout: 8 bytes magic, a uint32 (little-endian) header length, the header as
 * JSON, then each array at an 8-byte-aligned offset in the machine's order: every per-facility
 * array and text of the facilities with coordinates (../declared-columns.ts), then those of the
 * facilities without (./unplaced.ts), named `unplaced.<name>`.
 */
const MAGIC = 'FCSCOLS3';
const UNPLACED = 'unplaced.';

type View = ArrayBufferView & { length: number };
/** A set of columns as the header records it (its arrays are in `arrays`, under the set's prefix). */
type SetHeader = { count: number; states: string[]; words: Record<string, string[]>; idOther: [number, string][] };
type Header = SetHeader & { unplaced: SetHeader; arrays: Record<string, [number, number]> };

/** The arrays of columns that carry `carried`, with their element types: fixed-width ones, then each text's offsets and bytes. */
export function arrayTypesOf(carried: Carried): Record<string, ArrayType> {
  return Object.fromEntries([
    ...FACILITY_ARRAYS,
    ...carried.fixed.map(([name, type]) => [name, ARRAY_TYPES[type]] as const),
    ...textNames({ carried }).flatMap((t) => [[`${t}Start`, Uint32Array], [`${t}Bytes`, Uint8Array]] as const),
  ]);
}

const PLACED_TYPES = arrayTypesOf(AREA_CARRIED);
const UNPLACED_TYPES = Object.fromEntries(Object.entries(arrayTypesOf(UNPLACED_CARRIED)).map(([name, type]) => [`${UNPLACED}${name}`, type]));
const ARRAYS = [...Object.keys(PLACED_TYPES), ...Object.keys(UNPLACED_TYPES)];

/** The used part of each array of `c`, by name with `prefix` (the collector's arrays have room to grow). */
function usedArrays(c: SpatialColumns, prefix = ''): Record<string, View> {
  const n = c.count;
  const a = c as unknown as Record<string, View & { subarray(from: number, to?: number): View }>;
  const out: Record<string, View> = {};
  for (const name of fixedArrayNames(c)) out[`${prefix}${name}`] = a[name]!.subarray(0, n);
  for (const t of textNames(c)) {
    const start = a[`${t}Start`] as unknown as Uint32Array;
    out[`${prefix}${t}Start`] = start.subarray(0, n + 1);
    out[`${prefix}${t}Bytes`] = a[`${t}Bytes`]!.subarray(0, start[n] ?? 0);
  }
  return out;
}

function setHeader(c: SpatialColumns): SetHeader {
  return { count: c.count, states: c.states, words: Object.fromEntries(c.carried.words.map((w) => [w, (c as unknown as Record<string, string[]>)[w]!])), idOther: [...c.idOther] };
}

/** Writes `c` to `path` (array by array, no copy in memory). The caller owns the name: a temp name it removes. */
export function writeColumnsFile(path: string, c: AreaColumns): void {
  const unplaced = c.unplaced ?? emptyUnplaced();
  writeArrayFile(path, MAGIC, ARRAYS, { ...usedArrays(c), ...usedArrays(unplaced, UNPLACED) }, (arrays) => ({ ...setHeader(c), unplaced: setHeader(unplaced), arrays }) satisfies Header);
}

function emptyUnplaced(): UnplacedColumns {
  return allocateColumns(0, UNPLACED_CARRIED) as UnplacedColumns;
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
  const cols = readSet(bytes, h.arrays, '', h, AREA_CARRIED, PLACED_TYPES, path) as AreaColumns;
  cols.unplaced = readSet(bytes, h.arrays, UNPLACED, h.unplaced, UNPLACED_CARRIED, UNPLACED_TYPES, path) as UnplacedColumns;
  return cols;
}

/** One set of columns of the file: its arrays named with `prefix` in `arrays`, as views over `bytes`. */
function readSet(bytes: Uint8Array, arrays: Header['arrays'], prefix: string, h: SetHeader, carried: Carried, types: Record<string, ArrayType>, path: string): SpatialColumns {
  const c: Record<string, unknown> = { count: h.count, states: h.states, idOther: new Map(h.idOther), carried };
  for (const [name, T] of Object.entries(types)) {
    const [offset, length] = arrays[name] ?? [-1, -1];
    if (offset < 0 || offset % T.BYTES_PER_ELEMENT !== 0 || offset + length * T.BYTES_PER_ELEMENT > bytes.length) throw new Error(`${path}: array ${name} missing or truncated`);
    c[name.slice(prefix.length)] = new T(bytes.buffer as ArrayBuffer, bytes.byteOffset + offset, length);
  }
  for (const w of carried.words) c[w] = h.words[w] ?? [''];
  const cols = c as unknown as SpatialColumns;
  const consistent = cols.lat.length === cols.count && textNames(cols).every((t) => {
    const start = c[`${t}Start`] as Uint32Array, text = c[`${t}Bytes`] as Uint8Array;
    return start.length === cols.count + 1 && start[cols.count] === text.length;
  });
  if (!consistent) throw new Error(`${path}: inconsistent counts`);
  return cols;
}

