import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import type { SpatialColumns } from './spatial-index';

/**
 * The collected columns (./spatial-collector.ts) as a temp file, handed from the ingest process to
 * the process that lays them out (./spatial-layout-process.ts), so the layout runs without the
 * load's heap. Private to one ingest: written and read by the same build of the code, removed when
 * the layout is done. Layout: 8 bytes magic, a uint32 (little-endian) header length, the header as
 * JSON, then each array at an 8-byte-aligned offset in the machine's order.
 */
const MAGIC = 'FCSCOLS1';

const ARRAYS = ['lat', 'lng', 'idNum', 'score', 'nameStart', 'state', 'flags', 'idLen', 'nameBytes'] as const satisfies readonly (keyof SpatialColumns)[];
type ArrayName = (typeof ARRAYS)[number];
const TYPES = {
  lat: Float64Array, lng: Float64Array, idNum: Float64Array, score: Int32Array, nameStart: Uint32Array,
  state: Uint16Array, flags: Uint8Array, idLen: Uint8Array, nameBytes: Uint8Array,
} as const satisfies Record<ArrayName, unknown>;

type View = ArrayBufferView & { length: number };
type Header = { count: number; states: string[]; idOther: [number, string][]; arrays: Record<string, [number, number]> };

const align8 = (n: number) => (n + 7) & ~7;

/** The used part of each array (the collector's arrays have room to grow). */
function usedArrays(c: SpatialColumns): Record<ArrayName, View> {
  const n = c.count;
  const one = (name: ArrayName): View => (name === 'nameStart' ? c.nameStart.subarray(0, n + 1) : name === 'nameBytes' ? c.nameBytes.subarray(0, c.nameStart[n] ?? 0) : c[name].subarray(0, n));
  return Object.fromEntries(ARRAYS.map((name) => [name, one(name)])) as Record<ArrayName, View>;
}

/** Writes `c` to `path` (array by array, no copy in memory). The caller owns the name: a temp name it removes. */
export function writeColumnsFile(path: string, c: SpatialColumns): void {
  const used = usedArrays(c);
  const arrays: Header['arrays'] = {};
  const header = (base: number) => {
    let at = base;
    for (const name of ARRAYS) {
      arrays[name] = [at, used[name].length];
      at = align8(at + used[name].byteLength);
    }
    return new TextEncoder().encode(JSON.stringify({ count: c.count, states: c.states, idOther: [...c.idOther], arrays } satisfies Header));
  };
  // Offsets depend on the header's length and the header on the offsets: size it, then leave room.
  const base = align8(12 + header(0).length + 256);
  const json = header(base);
  if (12 + json.length > base) throw new Error('columns file header grew past its room');
  const head = new Uint8Array(base).fill(0x20);
  head.set(new TextEncoder().encode(MAGIC), 0);
  new DataView(head.buffer).setUint32(8, json.length, true);
  head.set(json, 12);
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, head);
    let at = base;
    for (const name of ARRAYS) {
      const a = used[name];
      const [offset] = arrays[name]!;
      if (offset > at) writeSync(fd, new Uint8Array(offset - at));
      writeSync(fd, new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
      at = offset + a.byteLength;
    }
  } finally {
    closeSync(fd);
  }
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
    state: view('state'),
    states: h.states,
    idNum: view('idNum'),
    idLen: view('idLen'),
    idOther: new Map(h.idOther),
    nameStart: view('nameStart'),
    nameBytes: view('nameBytes'),
  };
  if (c.lat.length !== c.count || c.nameStart.length !== c.count + 1 || c.nameStart[c.count] !== c.nameBytes.length) throw new Error(`${path}: inconsistent counts`);
  return c;
}
