import { readFileSync } from 'node:fs';
import { writeArrayFile } from './array-file';
import type { SpatialColumns } from '../../area/spatial-index';

/**
 * The collected columns (./spatial-collector.ts) as a temp file, handed from the ingest process to
 * the process that lays them out (./spatial-layout-process.ts), so the layout runs without the
 * load's heap. Private to one ingest: written and read by the same build of the code, removed when
 * the layout is done. Layout: 8 bytes magic, a uint32 (little-endian) header length, the header as
 * JSON, then each array at an 8-byte-aligned offset in the machine's order.
 */
const MAGIC = 'FCSCOLS2';

const ARRAYS = ['lat', 'lng', 'idNum', 'score', 'nameStart', 'addrStart', 'state', 'site', 'flags', 'idLen', 'nameBytes', 'addrBytes', 'locAccuracy', 'locMethod'] as const satisfies readonly (keyof SpatialColumns)[];
type ArrayName = (typeof ARRAYS)[number];
const TYPES = {
  lat: Float64Array, lng: Float64Array, idNum: Float64Array, score: Int32Array, nameStart: Uint32Array, addrStart: Uint32Array,
  state: Uint16Array, site: Uint16Array, flags: Uint8Array, idLen: Uint8Array, nameBytes: Uint8Array, addrBytes: Uint8Array,
  locAccuracy: Float32Array, locMethod: Uint8Array,
} as const satisfies Record<ArrayName, unknown>;

type View = ArrayBufferView & { length: number };
type Header = { count: number; states: string[]; methods: string[]; idOther: [number, string][]; arrays: Record<string, [number, number]> };

/** The used part of each array (the collector's arrays have room to grow). */
function usedArrays(c: SpatialColumns): Record<ArrayName, View> {
  const n = c.count;
  const one = (name: ArrayName): View =>
    name === 'nameStart' || name === 'addrStart' ? c[name].subarray(0, n + 1)
    : name === 'nameBytes' ? c.nameBytes.subarray(0, c.nameStart[n] ?? 0)
    : name === 'addrBytes' ? c.addrBytes.subarray(0, c.addrStart[n] ?? 0)
    : c[name].subarray(0, n);
  return Object.fromEntries(ARRAYS.map((name) => [name, one(name)])) as Record<ArrayName, View>;
}

/** Writes `c` to `path` (array by array, no copy in memory). The caller owns the name: a temp name it removes. */
export function writeColumnsFile(path: string, c: SpatialColumns): void {
  writeArrayFile(path, MAGIC, ARRAYS, usedArrays(c), (arrays) => ({ count: c.count, states: c.states, methods: c.methods, idOther: [...c.idOther], arrays }) satisfies Header);
}

/** The columns in the file at `path`, every array a view over its memory mapping (file-backed, not heap). */
export function readColumnsFile(path: string): SpatialColumns {
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
  const view = <N extends ArrayName>(name: N): InstanceType<(typeof TYPES)[N]> => {
    const T = TYPES[name];
    const [offset, length] = h.arrays[name] ?? [-1, -1];
    if (offset < 0 || offset % T.BYTES_PER_ELEMENT !== 0 || offset + length * T.BYTES_PER_ELEMENT > bytes.length) throw new Error(`${path}: array ${name} missing or truncated`);
    return new T(bytes.buffer as ArrayBuffer, bytes.byteOffset + offset, length) as InstanceType<(typeof TYPES)[N]>;
  };
  const c: SpatialColumns = {
    count: h.count,
    lat: view('lat'),
    lng: view('lng'),
    score: view('score'),
    flags: view('flags'),
    site: view('site'),
    state: view('state'),
    states: h.states,
    locAccuracy: view('locAccuracy'),
    locMethod: view('locMethod'),
    methods: h.methods,
    idNum: view('idNum'),
    idLen: view('idLen'),
    idOther: new Map(h.idOther),
    nameStart: view('nameStart'),
    nameBytes: view('nameBytes'),
    addrStart: view('addrStart'),
    addrBytes: view('addrBytes'),
  };
  if (c.lat.length !== c.count || c.nameStart.length !== c.count + 1 || c.nameStart[c.count] !== c.nameBytes.length || c.addrStart[c.count] !== c.addrBytes.length) throw new Error(`${path}: inconsistent counts`);
  return c;
}
