import { rmSync } from 'node:fs';
import type { IndexRow } from '../index-row';
import type { IndexInfo } from '../model';
import { writeColumnsFile } from './spatial-columns-file';
import { indexIdentity } from '../identity';
import { spatialFilePath, writeSpatialFileAt } from './spatial-file';
import { allocateColumns, fixedArrayNames, permuteFacilities, putRegistryId, textNames, type Carried, type FixedArray, type SpatialColumns } from '../../area/spatial-index';
import { addressEntry, TextBytes } from '../../area/text-bytes';
import { AREA_CARRIED, DeclaredPut, type AreaColumns, type DeclaredValues } from '../declared-columns';
import { layoutArea, UNPLACED_CARRIED, unplacedOrder, zip5Number, type UnplacedColumns } from './unplaced';
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

/** What the collector reads of a row: the area's own fields and the declared ones (../declared-columns.ts). */
export type AreaRow = Pick<IndexRow, 'registry_id' | 'fac_name' | 'fac_street' | 'fac_city' | 'fac_state' | 'fac_zip' | 'lat' | 'lng' | 'overall_score' | 'site_facts'> & {
  active_enforcement: number;
} & Partial<DeclaredValues>;

/**
 * Collects, while ingest writes an index, what its spatial index is made of (a few typed-array
 * entries per facility: no second read of the table), then lays it out and writes it beside the
 * index as `<index>.area` (./spatial-file.ts), tied to the index by its metadata. So a release
 * carries its spatial index and `serve` uses it in place instead of building it at start. The
 * facilities without coordinates go apart, by ZIP (./unplaced.ts). A read of a finished table
 * collects the same way (./spatial-columns.ts).
 */
export class SpatialCollector {
  private placed: ColumnsBuilder<AreaColumns>;
  private unplaced = new ColumnsBuilder<UnplacedColumns>(UNPLACED_CARRIED, 1 << 10);

  /** `capacity`: the facilities with coordinates expected (the arrays grow beyond it). */
  constructor(private readonly where: LayoutWhere = {}, capacity = 1 << 16) {
    this.placed = new ColumnsBuilder<AreaColumns>(AREA_CARRIED, capacity);
  }

  /** One indexed facility (each registry ID once: what the index writer accepted). */
  add(row: AreaRow): void {
    if (row.lat !== null && row.lng !== null) return void this.placed.add(row, row.lat, row.lng);
    // without coordinates: found by ID and search, never by area; a site report lists those of its ZIPs
    const zip = zip5Number(row.fac_zip);
    if (zip >= 0) this.unplaced.add(row, NaN, NaN).zip5[this.unplaced.count - 1] = zip;
  }

  get count(): number {
    return this.placed.count;
  }

  /** The collected facilities as columns in registry_id order (the facility table's order), those without coordinates beside them by ZIP. */
  columns(): AreaColumns {
    const c = this.placed.columns(registryOrder);
    c.unplaced = this.unplaced.columns(unplacedOrder);
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
    let cols: AreaColumns | null = this.columns();
    // What was collected is no longer needed here once written or laid out: let its memory go.
    this.placed = new ColumnsBuilder<AreaColumns>(AREA_CARRIED, 1);
    this.unplaced = new ColumnsBuilder<UnplacedColumns>(UNPLACED_CARRIED, 1);
    try {
      if (this.where === 'in-process') {
        // The load's garbage goes before the layout allocates its arrays, so the two add up less.
        Bun.gc(true);
        writeSpatialFileAt(tmp.area, layoutArea(cols), identity);
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
}

/** Columns growing as rows are added: a row's own fields, and those `carried` declares. */
class ColumnsBuilder<C extends SpatialColumns> {
  count = 0;
  private cols: C;
  private readonly names = new TextBytes();
  private readonly addresses = new TextBytes();
  private readonly declared: DeclaredPut | null;
  private readonly stateCode = new Map<string, number>();

  constructor(private readonly carried: Carried, private cap: number) {
    this.cap = Math.max(1, cap);
    this.cols = allocateColumns(this.cap, carried) as C;
    this.declared = carried === AREA_CARRIED ? new DeclaredPut() : null;
  }

  /** Appends `row` at (lat, lng); returns the columns it went into (for the caller's own arrays). */
  add(row: AreaRow, lat: number, lng: number): C {
    if (this.count === this.cap) this.grow();
    const c = this.cols;
    const i = this.count++;
    c.lat[i] = lat;
    c.lng[i] = lng;
    c.score[i] = row.overall_score;
    c.flags[i] = row.active_enforcement ? 1 : 0;
    c.site[i] = row.site_facts;
    let sc = this.stateCode.get(row.fac_state);
    if (sc === undefined) this.stateCode.set(row.fac_state, (sc = c.states.push(row.fac_state) - 1));
    c.state[i] = sc;
    putRegistryId(c, i, row.registry_id);
    this.declared?.put(c, i, row);
    c.nameStart[i + 1] = this.names.push(row.fac_name);
    c.addrStart[i + 1] = this.addresses.push(addressEntry(row.fac_street, row.fac_city, row.fac_zip));
    return c;
  }

  /** The rows as columns in the order `orderOf` gives (null: as added). */
  columns(orderOf: (c: C) => Uint32Array | null): C {
    const src = this.cols;
    src.count = this.count;
    src.nameBytes = this.names.bytes;
    src.addrBytes = this.addresses.bytes;
    this.declared?.done(src, false);
    const order = orderOf(src);
    if (!order) return src;
    const c = allocateColumns(this.count, this.carried) as C;
    c.states = src.states;
    permuteFacilities(c, src, order);
    return c;
  }

  private grow(): void {
    this.cap *= 2;
    const old = this.cols as unknown as Record<string, FixedArray>;
    const c = allocateColumns(this.cap, this.carried) as C;
    const arrays = c as unknown as Record<string, FixedArray>;
    for (const k of [...fixedArrayNames(c), ...textNames(c).map((t) => `${t}Start`)]) arrays[k]!.set(old[k]!);
    for (const k of ['states', ...this.carried.words]) (c as unknown as Record<string, unknown>)[k] = (old as unknown as Record<string, unknown>)[k];
    c.idOther = this.cols.idOther;
    this.cols = c;
  }
}

/**
 * Positions of the columns' registry IDs in ascending string order (SQLite's order for the TEXT
 * primary key), or null when they already are in it. Registry IDs are normally 12 digits, where
 * string order is numeric order: a radix sort on the number then (milliseconds for millions);
 * otherwise a string sort.
 */
export function registryOrder(c: Pick<AreaColumns, 'count' | 'idNum' | 'idLen' | 'idOther'>): Uint32Array | null {
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
