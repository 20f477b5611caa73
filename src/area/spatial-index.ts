import { cellToLatLng, h3IndexToSplitLong, latLngToCell } from 'h3-js';
import { cosLat, haversinePre } from './geo';
import { permuteTexts } from './text-bytes';

/**
 * H3 resolution of the cells facilities are grouped by. Resolution 6 (cells about 2.5 miles from
 * centre to corner) won the measurement of `scripts/bench-area.ts --resolutions`: coarser cells make a
 * 1-mile query scan too many points, finer ones make a 25-mile query walk too many rings.
 */
export const AREA_H3_RES = 6;

/** Registry IDs of 1-15 digits (every real one is 12) are kept as numbers plus a digit count. */
function isShortDigitString(id: string): boolean {
  if (id.length === 0 || id.length > 15) return false;
  for (let k = 0; k < id.length; k++) {
    const ch = id.charCodeAt(k);
    if (ch < 48 || ch > 57) return false;
  }
  return true;
}

/** The typed array classes per-facility arrays are kept in, by name (a name, unlike a class, goes to a worker with the index). */
export const ARRAY_TYPES = { Float64Array, Float32Array, Int32Array, Uint32Array, Uint16Array, Uint8Array };
export type ArrayTypeName = keyof typeof ARRAY_TYPES;
export type ArrayType = (typeof ARRAY_TYPES)[ArrayTypeName];
/** A per-facility array: one value per facility. */
export type FixedArray = InstanceType<ArrayType>;

/**
 * The arrays an index carries per facility beyond those the search reads, for its callers: named and
 * typed by them (src/index/declared-columns.ts), moved with their facility wherever facilities are
 * copied, and never read here. Each is a property of the columns (and of the laid-out index) under
 * its name.
 */
export type Carried = {
  /** [name, element type]: one value per facility. */
  fixed: readonly (readonly [name: string, type: ArrayTypeName])[];
  /** Texts: `<name>Start` (facility i's is bytes [start[i], start[i + 1])) and `<name>Bytes` (UTF-8), as the names are kept. */
  texts: readonly string[];
  /** Lists of words some fixed arrays index ('' first), kept with the index, not per facility. */
  words: readonly string[];
};

/** An index that carries nothing beyond what the search reads. */
export const CARRIES_NOTHING: Carried = { fixed: [], texts: [], words: [] };

/** The per-facility arrays every index has, with their element types: what facilities are copied by (copyFacility). */
export const FACILITY_ARRAYS = [
  ['lat', Float64Array], ['lng', Float64Array], ['score', Int32Array], ['flags', Uint8Array], ['site', Uint16Array],
  ['state', Uint16Array], ['idNum', Float64Array], ['idLen', Uint8Array],
] as const satisfies readonly (readonly [keyof SpatialColumns, ArrayType])[];
/** The texts every index has: names and addresses. */
export const FACILITY_TEXTS = ['name', 'addr'] as const;

/**
 * The whole facility table as columns in memory, grouped by H3 cell, for the radius search.
 * Facility i lives at position i of every per-facility array; cell c owns positions
 * cellStart[c] .. cellStart[c + 1] - 1, sorted by score ascending, then registry ID.
 * Besides what a search needs to pick and order rows, it holds what answers show (names,
 * addresses) and the arrays its `carried` names, so an answer reads no SQLite row.
 */
export type SpatialIndex = SpatialColumns & {
  res: number;
  /** cos(lat) as `haversinePre` takes it. */
  cos: Float64Array;
  /** Position of the facility in registry_id order: the tie-break of every sort. */
  rank: Uint32Array;
  stateCode: Map<string, number>;
  /** The cells' 64-bit H3 indexes, upper and lower 32 bits, ascending (see `cellNumber`). */
  cellHi: Uint32Array;
  cellLo: Uint32Array;
  cellStart: Uint32Array;
  cellLat: Float64Array;
  cellLng: Float64Array;
  cellCos: Float64Array;
  /** Largest distance from the cell's centre to one of its facilities (miles). */
  cellRadius: Float64Array;
  cellMinScore: Int32Array;
  cellActive: Uint8Array;
  /** The cell's one state code, or MIXED_STATES. */
  cellState: Uint16Array;
  /** Milliseconds it took to build or to read back. */
  buildMs: number;
  /** Built from the facility table now, or used in place from the release's stored copy (./spatial-file.ts). */
  origin: 'built' | 'stored';
};

export const MIXED_STATES = 0xffff;

/** Registry ID of the facility at position i. */
export function registryIdAt(s: SpatialIndex, i: number): string {
  const other = s.idOther.get(i);
  if (other !== undefined) return other;
  return String(s.idNum[i]).padStart(s.idLen[i]!, '0');
}


/**
 * What the spatial index is made from: one entry per facility, in registry_id order (the order of
 * the facility table's primary key, so position = rank). Read from an index file or collected
 * while ingest writes one (src/index/area/spatial-collector.ts).
 */
export type SpatialColumns = {
  count: number;
  lat: Float64Array;
  lng: Float64Array;
  score: Int32Array;
  /** Bit 0: active_enforcement. */
  flags: Uint8Array;
  /** What a site report's categories read (src/index/site-facts.ts siteFactBitsOf). */
  site: Uint16Array;
  /** Index into `states`. */
  state: Uint16Array;
  states: string[];
  idNum: Float64Array;
  idLen: Uint8Array;
  /** Registry IDs that are not 1-15 digits, by position (the ingest rejects those, so normally empty). */
  idOther: Map<number, string>;
  /** Facility names, UTF-8: facility i's is nameBytes[nameStart[i] .. nameStart[i + 1]) (so an area answer needs no SQLite read). */
  nameStart: Uint32Array;
  nameBytes: Uint8Array;
  /** Street, city and ZIP joined by ADDRESS_SEPARATOR, UTF-8, as the names are (so a site report's findings need no SQLite read). */
  addrStart: Uint32Array;
  addrBytes: Uint8Array;
  /** The arrays carried beside these, each a property under its name. */
  carried: Carried;
};

/** The columns' arrays by name (those of `carried` have no static type here). */
const arraysOf = (c: SpatialColumns) => c as unknown as Record<string, FixedArray & { subarray(a: number, b?: number): FixedArray }> & Record<string, string[]>;

/** Fresh columns for `n` facilities, with the arrays `carried` names (filled by the caller). */
export function allocateColumns(n: number, carried: Carried = CARRIES_NOTHING): SpatialColumns {
  return withCarried({
    count: n,
    lat: new Float64Array(n),
    lng: new Float64Array(n),
    score: new Int32Array(n),
    flags: new Uint8Array(n),
    site: new Uint16Array(n),
    state: new Uint16Array(n),
    states: [],
    idNum: new Float64Array(n),
    idLen: new Uint8Array(n),
    idOther: new Map(),
    nameStart: new Uint32Array(n + 1),
    nameBytes: new Uint8Array(0),
    addrStart: new Uint32Array(n + 1),
    addrBytes: new Uint8Array(0),
    carried,
  }, n);
}

/** `c` with the arrays its `carried` names added, empty, for `n` facilities (after the properties it has: a search reads its first ones fastest). */
function withCarried<C extends SpatialColumns>(c: C, n: number): C {
  const a = arraysOf(c) as Record<string, unknown>;
  for (const [name, T] of c.carried.fixed) a[name] = new ARRAY_TYPES[T](n);
  for (const name of c.carried.texts) {
    a[`${name}Start`] = new Uint32Array(n + 1);
    a[`${name}Bytes`] = new Uint8Array(0);
  }
  for (const name of c.carried.words) a[name] = [''];
  return c;
}

/**
 * The names of every per-facility array of fixed width `c` holds: the ones every index has, then
 * those it carries.
 */
export function fixedArrayNames(c: Pick<SpatialColumns, 'carried'>): string[] {
  return [...FACILITY_ARRAYS.map(([name]) => name), ...c.carried.fixed.map(([name]) => name)];
}

/** The names of the texts `c` holds: names, addresses, then those it carries. */
export function textNames(c: Pick<SpatialColumns, 'carried'>): string[] {
  return [...FACILITY_TEXTS, ...c.carried.texts];
}

/**
 * Copies facility `p` of `src` to place `k` of `dst`: every fixed-width array `dst` holds. Every
 * copy of facilities between columns and the laid-out index goes through here, so an array is
 * added once (in `carried`). Texts are variable-length and move apart (./text-bytes.ts permuteTexts).
 */
export function copyFacility(dst: SpatialColumns, k: number, src: SpatialColumns, p: number): void {
  dst.lat[k] = src.lat[p]!;
  dst.lng[k] = src.lng[p]!;
  dst.score[k] = src.score[p]!;
  dst.flags[k] = src.flags[p]!;
  dst.site[k] = src.site[p]!;
  dst.state[k] = src.state[p]!;
  dst.idNum[k] = src.idNum[p]!;
  dst.idLen[k] = src.idLen[p]!;
  const fixed = dst.carried.fixed;
  if (fixed.length > 0) {
    const to = arraysOf(dst), from = arraysOf(src);
    for (let f = 0; f < fixed.length; f++) {
      const name = fixed[f]![0];
      to[name]![k] = from[name]![p]!;
    }
  }
  if (src.idOther.size === 0) return;
  const other = src.idOther.get(p);
  if (other !== undefined) dst.idOther.set(k, other);
}

/** Stores `registryId` at position i of the columns' ID arrays. */
export function putRegistryId(c: SpatialColumns, i: number, registryId: string): void {
  if (isShortDigitString(registryId)) {
    c.idNum[i] = Number(registryId);
    c.idLen[i] = registryId.length;
  } else c.idOther.set(i, registryId);
}

/**
 * Fills `dst` (allocated for as many facilities) with the facilities of `src` in the order `perm`:
 * facility k of `dst` is facility perm[k] of `src`, in every array and text `dst` holds and its
 * IDs kept as text; the word lists are shared. Array by array (a loop per array is faster than
 * copyFacility per facility over many arrays).
 */
export function permuteFacilities(dst: SpatialColumns, src: SpatialColumns, perm: Uint32Array): void {
  const to = arraysOf(dst), from = arraysOf(src);
  for (const name of fixedArrayNames(dst)) gather(to[name]!, from[name]!, perm);
  for (const name of textNames(dst)) (to as Record<string, unknown>)[`${name}Bytes`] = permuteTexts(perm, from[`${name}Start`] as Uint32Array, from[`${name}Bytes`] as Uint8Array, to[`${name}Start`] as Uint32Array);
  for (const name of dst.carried.words) to[name] = from[name]!;
  if (src.idOther.size === 0) return;
  for (let k = 0; k < perm.length; k++) {
    const other = src.idOther.get(perm[k]!);
    if (other !== undefined) dst.idOther.set(k, other);
  }
}

function gather(to: FixedArray, from: FixedArray, perm: Uint32Array): void {
  for (let k = 0; k < perm.length; k++) to[k] = from[perm[k]!]!;
}

/**
 * Lays columns (in registry_id order) out by H3 cell. Cells are numbered in H3 index order, which
 * keeps neighbouring cells close in memory. Each facility's cell is `latLngToCell` at `res`
 * itself, never a parent of a finer cell (the two disagree for a few percent of points).
 */
export function layoutSpatialIndex(src: SpatialColumns, res = AREA_H3_RES): SpatialIndex {
  const started = performance.now();
  const { count, lat: lat0, lng: lng0, score: score0 } = src;
  const cell0 = new Uint32Array(count);
  const cellIds = new Map<string, number>(), cellNames: string[] = [];
  // The H3 call is most of the build. Each call leaves a few short strings behind, collected every
  // 2^18 facilities (a young-generation pass, milliseconds): the national layout alone raised RSS
  // markedly less with it than without.
  for (let i = 0; i < count; i++) {
    if ((i & 0x3ffff) === 0x3ffff) Bun.gc(false);
    const cell = latLngToCell(lat0[i]!, lng0[i]!, res);
    let c = cellIds.get(cell);
    if (c === undefined) cellIds.set(cell, (c = cellNames.push(cell) - 1));
    cell0[i] = c;
  }

  // Cells in H3 order (every cell string of one resolution has the same length, so string order is
  // numeric order); facilities by (cell, score, registry_id): two stable counting sorts over
  // positions that are already in registry_id order.
  const cellOrder = cellNames.map((_, c) => c).sort((a, b) => (cellNames[a]! < cellNames[b]! ? -1 : 1));
  const cellRank = new Uint32Array(cellNames.length);
  cellOrder.forEach((c, r) => (cellRank[c] = r));
  const identity = new Uint32Array(count);
  for (let k = 0; k < count; k++) identity[k] = k;
  const byScore = sortByScore(identity, score0);
  const perm = countingSort(byScore, (p) => cellRank[cell0[p]!]!, cellNames.length);

  const s = allocate(count, cellNames.length, res, src.carried);
  s.states = src.states;
  s.stateCode = new Map(src.states.map((st, i) => [st, i]));
  permuteFacilities(s, src, perm);
  for (let k = 0; k < count; k++) {
    s.cos[k] = cosLat(s.lat[k]!);
    s.rank[k] = perm[k]!;
  }
  for (let k = 0; k < count; k++) {
    const c = cellRank[cell0[perm[k]!]!]! + 1;
    s.cellStart[c] = s.cellStart[c]! + 1;
  }
  for (let c = 0; c < cellNames.length; c++) s.cellStart[c + 1] = s.cellStart[c + 1]! + s.cellStart[c]!;
  summarizeCells(s, cellOrder.map((c) => cellNames[c]!));
  s.buildMs = performance.now() - started;
  return s;
}

/**
 * The cell number of H3 cell `h` (a string of the index's resolution), or -1 when no facility is
 * in it: a binary search over the cells' 64-bit H3 indexes (kept as two Uint32Arrays, so a stored
 * index is used in place, with no Map to rebuild at start).
 */
export function cellNumber(s: SpatialIndex, h: string): number {
  const [lo, hi] = h3IndexToSplitLong(h);
  let a = 0, b = s.cellHi.length - 1;
  while (a <= b) {
    const m = (a + b) >>> 1;
    const mh = s.cellHi[m]!, ml = s.cellLo[m]!;
    if (mh < hi! || (mh === hi && ml < lo!)) a = m + 1;
    else if (mh === hi && ml === lo) return m;
    else b = m - 1;
  }
  return -1;
}

/**
 * Stable counting sort of `items` by an integer key in 0 .. keys - 1. Indexed loops, not `for...of`:
 * the iterator's result objects made the national layout's sorts add many times the RSS.
 */
function countingSort(items: Uint32Array, keyOf: (item: number) => number, keys: number): Uint32Array {
  const n = items.length;
  const start = new Uint32Array(keys + 1);
  for (let i = 0; i < n; i++) {
    const key = keyOf(items[i]!);
    start[key + 1] = start[key + 1]! + 1;
  }
  for (let k = 0; k < keys; k++) start[k + 1] = start[k + 1]! + start[k]!;
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const it = items[i]!;
    const key = keyOf(it);
    out[start[key]!] = it;
    start[key] = start[key]! + 1;
  }
  return out;
}

/** Stable sort by score: counting sort over the score range (0-100 in practice), comparison sort otherwise. */
function sortByScore(items: Uint32Array, score: Int32Array): Uint32Array {
  let min = Infinity, max = -Infinity;
  for (let i = 0; i < items.length; i++) (min = Math.min(min, score[items[i]!]!)), (max = Math.max(max, score[items[i]!]!));
  if (items.length === 0) return items;
  if (max - min <= 1 << 16) return countingSort(items, (it) => score[it]! - min, max - min + 1);
  return items.slice().sort((a, b) => score[a]! - score[b]! || a - b);
}

function allocate(count: number, cells: number, res: number, carried: Carried): SpatialIndex {
  // the properties a search reads first, in the order of a stored index (src/index/area/spatial-file.ts)
  return withCarried({
    res,
    count,
    lat: new Float64Array(count),
    lng: new Float64Array(count),
    cos: new Float64Array(count),
    idNum: new Float64Array(count),
    cellLat: new Float64Array(cells),
    cellLng: new Float64Array(cells),
    cellCos: new Float64Array(cells),
    cellRadius: new Float64Array(cells),
    score: new Int32Array(count),
    rank: new Uint32Array(count),
    cellStart: new Uint32Array(cells + 1),
    cellHi: new Uint32Array(cells),
    cellLo: new Uint32Array(cells),
    cellMinScore: new Int32Array(cells),
    nameStart: new Uint32Array(count + 1),
    addrStart: new Uint32Array(count + 1),
    state: new Uint16Array(count),
    cellState: new Uint16Array(cells),
    site: new Uint16Array(count),
    flags: new Uint8Array(count),
    idLen: new Uint8Array(count),
    cellActive: new Uint8Array(cells),
    nameBytes: new Uint8Array(0),
    addrBytes: new Uint8Array(0),
    idOther: new Map(),
    states: [],
    stateCode: new Map(),
    carried,
    buildMs: 0,
    origin: 'built',
  } satisfies SpatialIndex, count);
}

/** Per-cell centre, radius over its facilities, lowest score and flags, so searches can skip cells. */
function summarizeCells(s: SpatialIndex, names: string[]): void {
  names.forEach((name, c) => {
    const [lo, hi] = h3IndexToSplitLong(name);
    s.cellHi[c] = hi!;
    s.cellLo[c] = lo!;
    const [clat, clng] = cellToLatLng(name);
    s.cellLat[c] = clat;
    s.cellLng[c] = clng;
    s.cellCos[c] = cosLat(clat);
    const from = s.cellStart[c]!, to = s.cellStart[c + 1]!;
    let radius = 0, active = 0, state = s.state[from]!;
    for (let k = from; k < to; k++) {
      radius = Math.max(radius, haversinePre(clat, clng, s.cellCos[c]!, s.lat[k]!, s.lng[k]!, s.cos[k]!));
      active |= s.flags[k]! & 1;
      if (s.state[k] !== state) state = MIXED_STATES;
    }
    s.cellRadius[c] = radius;
    s.cellMinScore[c] = s.score[from]!;
    s.cellActive[c] = active;
    s.cellState[c] = state;
  });
}
