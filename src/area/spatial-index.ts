import { cellToLatLng, latLngToCell } from 'h3-js';
import type { Database } from 'bun:sqlite';
import { cosLat, haversinePre } from './geo';

/**
 * H3 resolution of the cells facilities are grouped by. Resolution 6 (cells about 2.5 miles from
 * centre to corner) won the measurement in docs/area-and-portfolio.md: coarser cells make a
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

/**
 * The whole facility table as columns in memory, grouped by H3 cell, for the radius search.
 * Facility i lives at position i of every per-facility array; cell c owns positions
 * cellStart[c] .. cellStart[c + 1] - 1, sorted by score ascending, then registry ID.
 * Only what a search needs to pick and order rows is here; names are read from SQLite for the
 * rows returned.
 */
export type SpatialIndex = {
  res: number;
  count: number;
  lat: Float64Array;
  lng: Float64Array;
  /** cos(lat) as `haversinePre` takes it. */
  cos: Float64Array;
  score: Int32Array;
  /** Bit 0: active_enforcement. */
  flags: Uint8Array;
  /** Index into `states`. */
  state: Uint16Array;
  /** Position of the facility in registry_id order: the tie-break of every sort. */
  rank: Uint32Array;
  idNum: Float64Array;
  idLen: Uint8Array;
  /** Registry IDs that are not 1-15 digits, by position (the ingest rejects those, so normally empty). */
  idOther: Map<number, string>;
  states: string[];
  stateCode: Map<string, number>;
  /** H3 cell string -> cell number. */
  cellOf: Map<string, number>;
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
  /** Built from the facility table now, or read back from a stored copy (./spatial-store.ts). */
  origin: 'built' | 'stored';
};

export const MIXED_STATES = 0xffff;

/** Registry ID of the facility at position i. */
export function registryIdAt(s: SpatialIndex, i: number): string {
  const other = s.idOther.get(i);
  if (other !== undefined) return other;
  return String(s.idNum[i]).padStart(s.idLen[i]!, '0');
}

type Raw = { registry_id: string; lat: number; lng: number; overall_score: number; active_enforcement: number; fac_state: string };

/**
 * Reads the facility table once (in registry_id order, the primary key's order) and lays it out by
 * H3 cell. Cells are numbered in H3 index order, which keeps neighbouring cells close in memory.
 * Each facility's cell is `latLngToCell` at AREA_H3_RES itself, never a parent of a finer cell
 * (the two disagree for a few percent of points).
 */
export function buildSpatialIndex(index: { db: Database }, res = AREA_H3_RES): SpatialIndex {
  const started = performance.now();
  const n = (index.db.query('SELECT count(*) AS n FROM facility').get() as { n: number }).n;
  const lat0 = new Float64Array(n), lng0 = new Float64Array(n), score0 = new Int32Array(n);
  const flags0 = new Uint8Array(n), state0 = new Uint16Array(n), cell0 = new Uint32Array(n);
  const idNum0 = new Float64Array(n), idLen0 = new Uint8Array(n);
  const idOther0 = new Map<number, string>();
  const states: string[] = [], stateCode = new Map<string, number>();
  const cellIds = new Map<string, number>(), cellNames: string[] = [];
  const rows = index.db.query<Raw, []>('SELECT registry_id, lat, lng, overall_score, active_enforcement, fac_state FROM facility ORDER BY registry_id');
  let count = 0;
  for (const r of rows.iterate()) {
    if (count >= n) break;
    const i = count++;
    lat0[i] = r.lat;
    lng0[i] = r.lng;
    score0[i] = r.overall_score;
    flags0[i] = r.active_enforcement ? 1 : 0;
    let sc = stateCode.get(r.fac_state);
    if (sc === undefined) stateCode.set(r.fac_state, (sc = states.push(r.fac_state) - 1));
    state0[i] = sc;
    if (isShortDigitString(r.registry_id)) {
      idNum0[i] = Number(r.registry_id);
      idLen0[i] = r.registry_id.length;
    } else idOther0.set(i, r.registry_id);
  }
  // A second pass, over typed arrays only: the H3 call is most of the build.
  for (let i = 0; i < count; i++) {
    const cell = latLngToCell(lat0[i]!, lng0[i]!, res);
    let c = cellIds.get(cell);
    if (c === undefined) cellIds.set(cell, (c = cellNames.push(cell) - 1));
    cell0[i] = c;
  }

  // Cells in H3 order; facilities by (cell, score, registry_id): two stable counting sorts over
  // positions that are already in registry_id order.
  const cellOrder = cellNames.map((_, c) => c).sort((a, b) => (cellNames[a]! < cellNames[b]! ? -1 : 1));
  const cellRank = new Uint32Array(cellNames.length);
  cellOrder.forEach((c, r) => (cellRank[c] = r));
  const identity = Uint32Array.from({ length: count }, (_, k) => k);
  const byScore = sortByScore(identity, score0);
  const perm = countingSort(byScore, (p) => cellRank[cell0[p]!]!, cellNames.length);

  const s = allocate(count, cellNames.length, res);
  s.states = states;
  s.stateCode = stateCode;
  for (let k = 0; k < count; k++) {
    const p = perm[k]!;
    s.lat[k] = lat0[p]!;
    s.lng[k] = lng0[p]!;
    s.cos[k] = cosLat(lat0[p]!);
    s.score[k] = score0[p]!;
    s.flags[k] = flags0[p]!;
    s.state[k] = state0[p]!;
    s.rank[k] = p;
    s.idNum[k] = idNum0[p]!;
    s.idLen[k] = idLen0[p]!;
    const other = idOther0.get(p);
    if (other !== undefined) s.idOther.set(k, other);
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

/** Stable counting sort of `items` by an integer key in 0 .. keys - 1. */
function countingSort(items: Uint32Array, keyOf: (item: number) => number, keys: number): Uint32Array {
  const start = new Uint32Array(keys + 1);
  for (const it of items) start[keyOf(it) + 1] = start[keyOf(it) + 1]! + 1;
  for (let k = 0; k < keys; k++) start[k + 1] = start[k + 1]! + start[k]!;
  const out = new Uint32Array(items.length);
  for (const it of items) {
    const key = keyOf(it);
    out[start[key]!] = it;
    start[key] = start[key]! + 1;
  }
  return out;
}

/** Stable sort by score: counting sort over the score range (0-100 in practice), comparison sort otherwise. */
function sortByScore(items: Uint32Array, score: Int32Array): Uint32Array {
  let min = Infinity, max = -Infinity;
  for (const it of items) (min = Math.min(min, score[it]!)), (max = Math.max(max, score[it]!));
  if (items.length === 0) return items;
  if (max - min <= 1 << 16) return countingSort(items, (it) => score[it]! - min, max - min + 1);
  return items.slice().sort((a, b) => score[a]! - score[b]! || a - b);
}

function allocate(count: number, cells: number, res: number): SpatialIndex {
  return {
    res,
    count,
    lat: new Float64Array(count),
    lng: new Float64Array(count),
    cos: new Float64Array(count),
    score: new Int32Array(count),
    flags: new Uint8Array(count),
    state: new Uint16Array(count),
    rank: new Uint32Array(count),
    idNum: new Float64Array(count),
    idLen: new Uint8Array(count),
    idOther: new Map(),
    states: [],
    stateCode: new Map(),
    cellOf: new Map(),
    cellStart: new Uint32Array(cells + 1),
    cellLat: new Float64Array(cells),
    cellLng: new Float64Array(cells),
    cellCos: new Float64Array(cells),
    cellRadius: new Float64Array(cells),
    cellMinScore: new Int32Array(cells),
    cellActive: new Uint8Array(cells),
    cellState: new Uint16Array(cells),
    buildMs: 0,
    origin: 'built',
  };
}

/** Per-cell centre, radius over its facilities, lowest score and flags, so searches can skip cells. */
function summarizeCells(s: SpatialIndex, names: string[]): void {
  names.forEach((name, c) => {
    s.cellOf.set(name, c);
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
