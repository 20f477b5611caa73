import { readFileSync, renameSync, rmSync } from 'node:fs';
import { writeArrayFile } from './array-file';
import { FACILITY_TEXTS, MIXED_STATES, textNames, type ArrayType, type SpatialIndex } from '../../area/spatial-index';
import { arrayTypesOf } from './spatial-columns-file';
import { UNPLACED_CARRIED, unplacedOf } from './unplaced';
import { AREA_CARRIED, areaArrays } from '../declared-columns';

/**
 * The spatial index as a file beside its index (`<index>.area`), written by ingest as part of the
 * release and used in place at start: memory-mapped, every typed array a view over the mapping, so
 * loading costs a header parse and a few checks (milliseconds), not a rebuild (seconds) or a copy.
 *
 * Layout: 8 bytes magic `FCSAREA1`, a uint32 (little-endian) header length, the header as JSON,
 * then each array at an 8-byte-aligned offset, little-endian (the machine's own order; a
 * big-endian host refuses the file and rebuilds). The header names the index it belongs to
 * (`identity`: a hash of the index's own metadata), where every array lies and each array's CRC-32
 * (`sums`): the identity binds the file to its build, the sums to its bytes, so a damaged file is
 * refused (and rebuilt from the index) instead of serving run-together names or lost facilities.
 * Beside the index, the facilities without coordinates a site report lists by ZIP (./unplaced.ts).
 */
const MAGIC = 'FCSAREA1';
const FORMAT = 'area-file/5';

/** Where an index file's spatial index lives. */
export function spatialFilePath(indexPath: string): string {
  return `${indexPath}.area`;
}

/** The laid-out index's arrays beyond the per-facility ones: by facility, then by cell. */
const INDEX_ARRAYS = [['cos', Float64Array], ['rank', Uint32Array]] as const;
const CELL_ARRAYS = [
  ['cellLat', Float64Array], ['cellLng', Float64Array], ['cellCos', Float64Array], ['cellRadius', Float64Array], ['cellStart', Uint32Array],
  ['cellHi', Uint32Array], ['cellLo', Uint32Array], ['cellMinScore', Int32Array], ['cellActive', Uint8Array], ['cellState', Uint16Array],
] as const;
const TEXTS = textNames({ carried: AREA_CARRIED });
const UNPLACED = 'unplaced.';
/**
 * Every array of the file with its element type: those the search reads first (the index object
 * keeps this order, and a search reads its first properties fastest), the other per-facility ones
 * every index has, those the area carries for the site report (../declared-columns.ts) and the
 * texts; then those of the facilities without coordinates kept beside it (./unplaced.ts), named
 * `unplaced.<name>`.
 */
const SEARCHED = ['lat', 'lng', 'cos', 'idNum', 'cellLat', 'cellLng', 'cellCos', 'cellRadius', 'score', 'rank', 'cellStart', 'cellHi', 'cellLo', 'cellMinScore', 'nameStart', 'addrStart', 'state', 'cellState', 'site', 'flags', 'idLen', 'cellActive'];
const ALL_TYPES: Record<string, ArrayType> = { ...Object.fromEntries([...INDEX_ARRAYS, ...CELL_ARRAYS]), ...arrayTypesOf(AREA_CARRIED) };
const TYPES: Record<string, ArrayType> = {
  ...Object.fromEntries(SEARCHED.map((name) => [name, ALL_TYPES[name]!])),
  ...ALL_TYPES,
  ...Object.fromEntries(Object.entries(arrayTypesOf(UNPLACED_CARRIED)).map(([name, type]) => [`${UNPLACED}${name}`, type])),
};
const ARRAYS = Object.keys(TYPES);
const TEXT_BYTES = new Set(TEXTS.map((t) => `${t}Bytes`));
const TEXT_STARTS = new Set(TEXTS.map((t) => `${t}Start`));

type Header = {
  format: string;
  identity: string;
  res: number;
  count: number;
  cells: number;
  states: string[];
  /** The word lists the carried arrays index, by name. */
  words: Record<string, string[]>;
  idOther: [number, string][];
  /** The facilities without coordinates kept beside the index: how many, their states and their IDs that are not 1-15 digits. */
  unplaced: { count: number; states: string[]; idOther: [number, string][] };
  /** name -> [byte offset, element count] */
  arrays: Record<string, [number, number]>;
  /** name -> CRC-32 of the array's bytes */
  sums: Record<string, number>;
};

type View = ArrayBufferView & { length: number };
const bytesOf = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Writes `s` to `path` atomically (temp file, then rename), array by array (no second copy in memory). */
export function writeSpatialFile(path: string, s: SpatialIndex, identity: string): void {
  const tmp = `${path}.tmp-${process.pid}`;
  try {
    writeSpatialFileAt(tmp, s, identity);
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/**
 * Writes `s` to exactly `path`, array by array (no second copy in memory). Not atomic: `path` is a
 * temp name its caller renames into place or removes (a process that lays out for another: ./spatial-layout-process.ts).
 */
export function writeSpatialFileAt(path: string, s: SpatialIndex, identity: string): void {
  rmSync(path, { force: true });
  const a = areaArrays(s) as unknown as Record<string, View>;
  const u = unplacedOf(s);
  const arrayOf = (name: string) => (name.startsWith(UNPLACED) ? (u as unknown as Record<string, View>)[name.slice(UNPLACED.length)] : a[name])!;
  const views = Object.fromEntries(ARRAYS.map((name) => [name, arrayOf(name)]));
  const sums = Object.fromEntries(ARRAYS.map((name) => [name, Bun.hash.crc32(bytesOf(views[name]!))]));
  const words = Object.fromEntries(AREA_CARRIED.words.map((w) => [w, (a as unknown as Record<string, string[]>)[w]!]));
  const unplaced = { count: u.count, states: u.states, idOther: [...u.idOther] };
  writeArrayFile(path, MAGIC, ARRAYS, views, (arrays) => ({ format: FORMAT, identity, res: s.res, count: s.count, cells: s.cellLat.length, states: s.states, words, idOther: [...s.idOther], unplaced, arrays, sums }) satisfies Header);
}

/** Why a file was not used, for the log line; or the index. */
export type LoadOutcome = { ok: true; spatial: SpatialIndex } | { ok: false; reason: string };

/**
 * The spatial index stored at `path` for the index whose identity is `identity`, used in place:
 * memory-mapped (read into memory with one call where mapping is refused). Anything unexpected
 * (missing, another format, resolution or index, a truncated or misaligned array) is a reason
 * not to use it, never an error: the caller builds instead.
 */
export function loadSpatialFile(path: string, identity: string, res: number): LoadOutcome {
  const started = performance.now();
  if (!LITTLE_ENDIAN) return { ok: false, reason: 'this machine is big-endian' };
  let bytes: Uint8Array;
  try {
    bytes = mapFile(path);
  } catch (e) {
    return { ok: false, reason: (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no area file' : `unreadable (${(e as Error).message})` };
  }
  return loadSpatialBytes(bytes, identity, res, started);
}

/**
 * The spatial index held in `bytes` (an area file's whole content, 8-byte aligned: e.g. the one
 * embedded in the binary beside its sample), checked like a file and used in place: every array a
 * view over `bytes`.
 */
export function loadSpatialBytes(bytes: Uint8Array, identity: string, res: number, started = performance.now()): LoadOutcome {
  if (!LITTLE_ENDIAN) return { ok: false, reason: 'this machine is big-endian' };
  if (bytes.byteOffset % 8 !== 0) bytes = new Uint8Array(bytes);
  if (bytes.length < 12 || new TextDecoder().decode(bytes.subarray(0, 8)) !== MAGIC) return { ok: false, reason: 'not an area file' };
  const headerLength = new DataView(bytes.buffer, bytes.byteOffset, 12).getUint32(8, true);
  let h: Header;
  try {
    h = JSON.parse(new TextDecoder().decode(bytes.subarray(12, 12 + headerLength))) as Header;
  } catch {
    return { ok: false, reason: 'damaged header' };
  }
  if (h.format !== FORMAT) return { ok: false, reason: `format ${h.format}, expected ${FORMAT}` };
  if (h.res !== res) return { ok: false, reason: `resolution ${h.res}, expected ${res}` };
  if (h.identity !== identity) return { ok: false, reason: 'it belongs to another build of the index' };
  if (!h.unplaced) return { ok: false, reason: 'no facilities without coordinates beside the index' };
  const unplacedCount = h.unplaced?.count ?? -1;
  const expected = (n: string, length: number): number => {
    if (n.startsWith(UNPLACED)) {
      const own = n.slice(UNPLACED.length);
      return own.endsWith('Bytes') ? length : own.endsWith('Start') ? unplacedCount + 1 : unplacedCount;
    }
    return TEXT_BYTES.has(n) ? length : n === 'cellStart' ? h.cells + 1 : TEXT_STARTS.has(n) ? h.count + 1 : n.startsWith('cell') ? h.cells : h.count;
  };
  // the index's arrays and those of the facilities without coordinates, apart: the index object is
  // made once with all its properties (deleting some afterwards would slow every search's reads)
  const views: Record<string, unknown> = {};
  const unplaced: Record<string, unknown> = { count: unplacedCount, states: h.unplaced.states, idOther: new Map(h.unplaced.idOther), carried: UNPLACED_CARRIED };
  for (const name of ARRAYS) {
    const T = TYPES[name]!;
    const [offset, length] = h.arrays[name] ?? [-1, -1];
    const start = bytes.byteOffset + offset;
    if (length !== expected(name, length) || offset < 0 || start % T.BYTES_PER_ELEMENT !== 0 || offset + length * T.BYTES_PER_ELEMENT > bytes.length) {
      return { ok: false, reason: `array ${name} missing, truncated or misplaced` };
    }
    const view = new T(bytes.buffer as ArrayBuffer, start, length);
    if (name.startsWith(UNPLACED)) unplaced[name.slice(UNPLACED.length)] = view;
    else views[name] = view;
    // Every byte read once at open (docs/benchmarks.md, "Checksums at open"), never per query.
    if (Bun.hash.crc32(bytesOf(view)) !== h.sums?.[name]) return { ok: false, reason: `damaged: array ${name} fails its checksum` };
  }
  for (const w of AREA_CARRIED.words) views[w] = h.words?.[w] ?? [''];
  const s = {
    ...views,
    res: h.res,
    count: h.count,
    states: h.states,
    stateCode: new Map(h.states.map((st, i) => [st, i])),
    idOther: new Map(h.idOther),
    carried: AREA_CARRIED,
    unplaced,
    buildMs: 0,
    origin: 'stored' as const,
  } as unknown as SpatialIndex;
  const textsFit = TEXTS.every((t) => (views[`${t}Start`] as Uint32Array)[h.count] === (views[`${t}Bytes`] as Uint8Array).length) &&
    FACILITY_TEXTS.every((t) => (unplaced[`${t}Start`] as Uint32Array)[unplacedCount] === (unplaced[`${t}Bytes`] as Uint8Array).length);
  if (s.cellStart[h.cells] !== h.count || !textsFit || h.states.length >= MIXED_STATES) return { ok: false, reason: 'inconsistent counts' };
  s.buildMs = performance.now() - started;
  return { ok: true, spatial: s };
}

/** The file's bytes: a shared read-only mapping where the runtime offers one, else one read. */
function mapFile(path: string): Uint8Array {
  try {
    return Bun.mmap(path, { shared: false });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw e;
    const b = readFileSync(path);
    return b.byteOffset % 8 === 0 ? b : new Uint8Array(b);
  }
}
