import { rmSync } from 'node:fs';
import type { IndexRow } from '../index-row';
import type { IndexInfo } from '../model';
import { writeColumnsFile } from './spatial-columns-file';
import { indexIdentity } from '../identity';
import { spatialFilePath, writeSpatialFileAt } from './spatial-file';
import { AREA_H3_RES, allocateColumns, copyFacility, layoutSpatialIndex, putLocation, putRegistryId, type SpatialColumns } from '../../area/spatial-index';
import { addressEntry, permuteTexts, TextBytes } from '../../area/text-bytes';
import { layoutInChildProcess } from './spatial-layout-process';

/** The area file a build of `indexPath` writes before it is put in place, and the columns handed to the layout process. */
export function spatialTempPaths(indexPath: string, pid: number = process.pid): { area: string; columns: string } {
  const area = spatialFilePath(indexPath);
  return { area: `${area}.tmp-${pid}`, columns: `${area}.columns.tmp-${pid}` };
}

/**
 * How the collected columns are laid out: in a child process started with `command` (default:
 * this program again, ./spatial-layout-process.ts), or `in-process` (the same bytes; the load's
 * heap and the layout's then add up in one process).
 */
export type LayoutWhere = { command?: string[] } | 'in-process';

/**
 * Collects, while ingest writes an index, what its spatial index is made of (a few typed-array
 * entries per facility: no second read of the table), then lays it out and writes it beside the
 * index as `<index>.area` (./spatial-file.ts), tied to the index by its metadata. So a release
 * carries its spatial index and `serve` uses it in place instead of building it at start.
 */
export class SpatialCollector {
  constructor(private readonly where: LayoutWhere = {}) {}

  private n = 0;
  private cap = 1 << 16;
  private cols: SpatialColumns = allocateColumns(this.cap);
  private names = new TextBytes();
  private addresses = new TextBytes();
  private readonly stateCode = new Map<string, number>();
  private readonly methodCode = new Map<string, number>();

  /** One indexed facility (each registry ID once: what the index writer accepted). */
  add(row: IndexRow): void {
    if (row.lat === null || row.lng === null) return; // no coordinates: found by ID and search, never by area
    if (this.n === this.cap) this.grow();
    const c = this.cols;
    const i = this.n++;
    c.lat[i] = row.lat;
    c.lng[i] = row.lng;
    c.score[i] = row.overall_score;
    c.flags[i] = row.active_enforcement ? 1 : 0;
    c.site[i] = row.site_facts;
    let sc = this.stateCode.get(row.fac_state);
    if (sc === undefined) this.stateCode.set(row.fac_state, (sc = c.states.push(row.fac_state) - 1));
    c.state[i] = sc;
    putRegistryId(c, i, row.registry_id);
    putLocation(c, this.methodCode, i, row.loc_accuracy_m, row.loc_method);
    c.nameStart[i + 1] = this.names.push(row.fac_name);
    c.addrStart[i + 1] = this.addresses.push(addressEntry(row.fac_street, row.fac_city, row.fac_zip));
  }

  get count(): number {
    return this.n;
  }

  /** The collected facilities as columns in registry_id order (the facility table's order). */
  columns(): SpatialColumns {
    const src = this.cols;
    src.count = this.n;
    src.nameBytes = this.names.bytes;
    src.addrBytes = this.addresses.bytes;
    const order = registryOrder(src);
    if (!order) return src;
    const c = allocateColumns(this.n);
    c.states = src.states;
    c.methods = src.methods;
    for (let k = 0; k < this.n; k++) copyFacility(c, k, src, order[k]!);
    c.nameBytes = permuteTexts(order, src.nameStart, src.nameBytes, c.nameStart);
    c.addrBytes = permuteTexts(order, src.addrStart, src.addrBytes, c.addrStart);
    return c;
  }

  /**
   * Lays the index out and writes it for the index about to be put at `indexPath`, under a temp
   * name (`spatialTempPaths`) that ingest renames into place with the index or removes. Returns
   * the temp and final paths and the milliseconds taken; throws (one line) when the layout fails,
   * leaving no file behind.
   */
  async prepareBeside(indexPath: string, info: IndexInfo): Promise<{ tmpPath: string; path: string; ms: number }> {
    const started = performance.now();
    const tmp = spatialTempPaths(indexPath);
    const identity = indexIdentity(info);
    let cols: SpatialColumns | null = this.columns();
    // What was collected is no longer needed here once written or laid out: let its memory go.
    this.cols = allocateColumns(0);
    this.names = new TextBytes();
    this.addresses = new TextBytes();
    try {
      if (this.where === 'in-process') {
        // The load's garbage goes before the layout allocates its arrays, so the two add up less.
        Bun.gc(true);
        writeSpatialFileAt(tmp.area, layoutSpatialIndex(cols, AREA_H3_RES), identity);
      } else {
        writeColumnsFile(tmp.columns, cols);
        cols = null;
        await layoutInChildProcess({ columnsPath: tmp.columns, outPath: tmp.area, identity }, this.where.command);
      }
    } catch (e) {
      rmSync(tmp.area, { force: true });
      throw e;
    } finally {
      rmSync(tmp.columns, { force: true });
    }
    return { tmpPath: tmp.area, path: spatialFilePath(indexPath), ms: performance.now() - started };
  }

  private grow(): void {
    this.cap *= 2;
    const old = this.cols;
    const c = allocateColumns(this.cap);
    for (const k of ['lat', 'lng', 'score', 'flags', 'site', 'state', 'locAccuracy', 'locMethod', 'idNum', 'idLen', 'nameStart', 'addrStart'] as const) (c[k] as Float64Array).set(old[k] as Float64Array);
    c.states = old.states;
    c.methods = old.methods;
    c.idOther = old.idOther;
    this.cols = c;
  }
}

/**
 * Positions of the columns' registry IDs in ascending string order (SQLite's order for the TEXT
 * primary key), or null when they already are in it. Registry IDs are normally 12 digits, where
 * string order is numeric order: a radix sort on the number then (milliseconds for millions);
 * otherwise a string sort.
 */
export function registryOrder(c: Pick<SpatialColumns, 'count' | 'idNum' | 'idLen' | 'idOther'>): Uint32Array | null {
  const n = c.count;
  const len = c.idLen[0] ?? 0;
  let sameShape = c.idOther.size === 0;
  for (let i = 0; i < n && sameShape; i++) if (c.idLen[i] !== len) sameShape = false;
  if (sameShape) {
    let sorted = true;
    for (let i = 1; i < n && sorted; i++) if (c.idNum[i - 1]! > c.idNum[i]!) sorted = false;
    return sorted ? null : radixOrder(c.idNum.subarray(0, n));
  }
  const ids = Array.from({ length: n }, (_, i) => c.idOther.get(i) ?? String(c.idNum[i]).padStart(c.idLen[i]!, '0'));
  let sorted = true;
  for (let i = 1; i < n && sorted; i++) if (ids[i - 1]! > ids[i]!) sorted = false;
  if (sorted) return null;
  return Uint32Array.from(ids.map((_, i) => i)).sort((a, b) => (ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : 0));
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
