import type { IndexInfo } from '../index/model';
import { spatialFilePath, spatialIdentity, writeSpatialFile } from './spatial-file';
import { AREA_H3_RES, allocateColumns, layoutSpatialIndex, putRegistryId, type SpatialColumns } from './spatial-index';

/** The row fields a spatial index needs, as ingest hands them over (src/index/ingest/producer.ts EncodedRow order). */
type Row = readonly [registry_id: string, fac_name: string, fac_street: string, fac_city: string, fac_state: string, fac_zip: string, lat: number, lng: number, fac_naics: string, overall_score: number, active_enforcement: number, ...rest: unknown[]];

/**
 * Collects, while ingest writes an index, what its spatial index is made of (a few typed-array
 * entries per facility: no second read of the table), then lays it out and writes it beside the
 * index as `<index>.area` (./spatial-file.ts), tied to the index by its metadata. So a release
 * carries its spatial index and `serve` uses it in place instead of building it at start.
 */
export class SpatialCollector {
  private n = 0;
  private cap = 1 << 16;
  private lat = new Float64Array(this.cap);
  private lng = new Float64Array(this.cap);
  private score = new Int32Array(this.cap);
  private flags = new Uint8Array(this.cap);
  private state = new Uint16Array(this.cap);
  private ids: string[] = [];
  private readonly stateCode = new Map<string, number>();
  private readonly states: string[] = [];

  /** One indexed facility (each registry ID once: what the index writer accepted). */
  add(row: Row): void {
    if (this.n === this.cap) this.grow();
    const i = this.n++;
    this.lat[i] = row[6];
    this.lng[i] = row[7];
    this.score[i] = row[9];
    this.flags[i] = row[10] ? 1 : 0;
    let sc = this.stateCode.get(row[4]);
    if (sc === undefined) this.stateCode.set(row[4], (sc = this.states.push(row[4]) - 1));
    this.state[i] = sc;
    this.ids.push(row[0]);
  }

  get count(): number {
    return this.n;
  }

  /** The collected facilities as columns in registry_id order (the facility table's order). */
  columns(): SpatialColumns {
    const order = registryOrder(this.ids);
    const c = allocateColumns(this.n);
    c.states = this.states;
    for (let k = 0; k < this.n; k++) {
      const p = order ? order[k]! : k;
      c.lat[k] = this.lat[p]!;
      c.lng[k] = this.lng[p]!;
      c.score[k] = this.score[p]!;
      c.flags[k] = this.flags[p]!;
      c.state[k] = this.state[p]!;
      putRegistryId(c, k, this.ids[p]!);
    }
    return c;
  }

  /** Lays the index out and writes it beside the index at `indexPath`; returns the file written and the milliseconds taken. */
  writeBeside(indexPath: string, info: IndexInfo): { path: string; ms: number } {
    const started = performance.now();
    const cols = this.columns();
    // The collected rows are no longer needed: let the layout reuse their memory.
    this.ids = [];
    this.lat = this.lng = new Float64Array(0);
    const s = layoutSpatialIndex(cols, AREA_H3_RES);
    const path = spatialFilePath(indexPath);
    writeSpatialFile(path, s, spatialIdentity(info));
    return { path, ms: performance.now() - started };
  }

  private grow(): void {
    this.cap *= 2;
    const more = <T extends Float64Array | Int32Array | Uint8Array | Uint16Array>(a: T): T => {
      const b = new (a.constructor as new (n: number) => T)(this.cap);
      b.set(a);
      return b;
    };
    this.lat = more(this.lat);
    this.lng = more(this.lng);
    this.score = more(this.score);
    this.flags = more(this.flags);
    this.state = more(this.state);
  }
}

/**
 * Positions of `ids` in ascending string order (SQLite's order for the TEXT primary key), or null
 * when they already are in it. Registry IDs are normally 12 digits, where string order is numeric
 * order: a radix sort on the number then (milliseconds for millions); otherwise a string sort.
 */
export function registryOrder(ids: readonly string[]): Uint32Array | null {
  let sorted = true;
  for (let i = 1; i < ids.length && sorted; i++) if (ids[i - 1]! > ids[i]!) sorted = false;
  if (sorted) return null;
  const len = ids[0]?.length ?? 0;
  const numeric = len > 0 && len <= 15 && ids.every((id) => id.length === len && /^[0-9]+$/.test(id));
  if (!numeric) return Uint32Array.from(ids.map((_, i) => i)).sort((a, b) => (ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : 0));
  const keys = Float64Array.from(ids, Number);
  return radixOrder(keys);
}

const HALF = 2 ** 25;

/** Stable LSD radix sort of positions by non-negative integer keys below 2^50: four passes of 13/12 bits. */
function radixOrder(keys: Float64Array): Uint32Array {
  const n = keys.length;
  let from = Uint32Array.from({ length: n }, (_, k) => k);
  let to = new Uint32Array(n);
  const lo = new Uint32Array(n), hi = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const h = Math.floor(keys[i]! / HALF);
    hi[i] = h;
    lo[i] = keys[i]! - h * HALF;
  }
  const counts = new Uint32Array(1 << 13);
  for (const [part, shift] of [[lo, 0], [lo, 13], [hi, 0], [hi, 13]] as const) {
    counts.fill(0);
    for (let k = 0; k < n; k++) counts[(part[from[k]!]! >>> shift) & 8191]!++;
    let sum = 0;
    for (let d = 0; d < counts.length; d++) {
      const c = counts[d]!;
      counts[d] = sum;
      sum += c;
    }
    for (let k = 0; k < n; k++) {
      const p = from[k]!;
      to[counts[(part[p]! >>> shift) & 8191]!++] = p;
    }
    [from, to] = [to, from];
  }
  return from;
}
