import { rmSync } from 'node:fs';
import type { IndexInfo } from '../index/model';
import { writeColumnsFile } from './spatial-columns-file';
import { indexIdentity } from '../index/identity';
import { spatialFilePath, writeSpatialFileAt } from './spatial-file';
import { AREA_H3_RES, allocateColumns, layoutSpatialIndex, putRegistryId, type SpatialColumns } from './spatial-index';
import { addressEntry, NameBytes } from './text-bytes';
import { LayoutProcess } from './spatial-layout-process';
import { inRegistryOrder } from './registry-order';

/** The row fields a spatial index needs, as ingest hands them over (src/index/ingest/producer.ts EncodedRow order). */
type Row = readonly [
  registry_id: string, fac_name: string, fac_street: string, fac_city: string, fac_state: string, fac_zip: string, lat: number | null, lng: number | null,
  fac_naics: string, overall_score: number, active_enforcement: number, ...skipped: unknown[],
];
/** Where EncodedRow holds the site facts. */
const SITE_FACTS = 21;

/** The area file a build of `indexPath` writes before it is put in place, and the columns handed to the layout process. */
export function spatialTempPaths(indexPath: string, pid: number = process.pid): { area: string; columns: string } {
  const area = spatialFilePath(indexPath);
  return { area: `${area}.tmp-${pid}`, columns: `${area}.columns.tmp-${pid}` };
}

/**
 * How the collected columns are laid out: in a child process started with `command` (default:
 * this program again, ./spatial-layout-process.ts) at the first row and fed each point as rows
 * come, or `in-process` (the same bytes; the load's heap and the layout's then add up in one process).
 */
export type LayoutWhere = { command?: string[] } | 'in-process';

/** Points per write to the layout process: ~2,000 rows, 32 KB, so a write costs little per row. */
const POINTS_PER_WRITE = 2048;

/**
 * Collects, while ingest writes an index, what its spatial index is made of (a few typed-array
 * entries per facility: no second read of the table), then lays it out and writes it beside the
 * index as `<index>.area` (./spatial-file.ts), tied to the index by its metadata. So a release
 * carries its spatial index and `serve` uses it in place instead of building it at start.
 */
export class SpatialCollector {
  constructor(where: LayoutWhere = {}) {
    this.child = where === 'in-process' ? null : where;
  }

  /** The layout process's command, or null to lay out in this process. */
  private readonly child: { command?: string[] } | null;
  private layout: LayoutProcess | null = null;
  /** Facilities whose point has gone to the layout process. */
  private sent = 0;
  private n = 0;
  private cap = 1 << 16;
  private cols: SpatialColumns = allocateColumns(this.cap);
  private names = new NameBytes();
  private addresses = new NameBytes();
  private readonly stateCode = new Map<string, number>();

  /** One indexed facility (each registry ID once: what the index writer accepted). */
  add(row: Row): void {
    if (this.layout === null && this.child) this.layout = new LayoutProcess(this.child.command);
    if (row[6] === null || row[7] === null) return; // no coordinates: found by ID and search, never by area
    if (this.n === this.cap) this.grow();
    const c = this.cols;
    const i = this.n++;
    c.lat[i] = row[6];
    c.lng[i] = row[7];
    c.score[i] = row[9];
    c.flags[i] = row[10] ? 1 : 0;
    c.site[i] = row[SITE_FACTS] as number;
    let sc = this.stateCode.get(row[4]);
    if (sc === undefined) this.stateCode.set(row[4], (sc = c.states.push(row[4]) - 1));
    c.state[i] = sc;
    putRegistryId(c, i, row[0]);
    c.nameStart[i + 1] = this.names.push(row[1]);
    c.addrStart[i + 1] = this.addresses.push(addressEntry(row[2], row[3], row[5]));
    if (this.n - this.sent === POINTS_PER_WRITE && this.layout) this.sendPoints();
  }

  get count(): number {
    return this.n;
  }

  /** The pid of the layout process, once started (null in process, or when it could not start). */
  get layoutPid(): number | null {
    return this.layout?.pid ?? null;
  }

  /** Resolves when the layout process has taken the points sent so far; null when it has (or there is none). */
  ready(): Promise<void> | null {
    return this.layout?.ready() ?? null;
  }

  /** The collected facilities as columns in registry_id order (the facility table's order). */
  columns(): SpatialColumns {
    return inRegistryOrder(this.arrivalColumns()).columns;
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
    try {
      if (!this.child) {
        const cols = this.columns();
        this.release();
        // The load's garbage goes before the layout allocates its arrays, so the two add up less.
        Bun.gc(true);
        writeSpatialFileAt(tmp.area, layoutSpatialIndex(cols, AREA_H3_RES), identity);
      } else {
        const layout = (this.layout ??= new LayoutProcess(this.child.command));
        this.sendPoints();
        // In arrival order: the layout process puts them in registry_id order, off this thread.
        // None for a process that has already died: `finish` says how it did.
        if (layout.running) writeColumnsFile(tmp.columns, this.arrivalColumns());
        this.release();
        await layout.finish({ columnsPath: tmp.columns, outPath: tmp.area, identity });
      }
    } catch (e) {
      await this.layout?.abort();
      rmSync(tmp.area, { force: true });
      throw e;
    } finally {
      rmSync(tmp.columns, { force: true });
    }
    return { tmpPath: tmp.area, path: spatialFilePath(indexPath), ms: performance.now() - started };
  }

  /** Stops the layout process, if any (the ingest failed or was interrupted); resolves when it has exited. */
  abort(): Promise<void> {
    return this.layout?.abort() ?? Promise.resolve();
  }

  /** The collected columns in the order rows came. */
  private arrivalColumns(): SpatialColumns {
    const c = this.cols;
    c.count = this.n;
    c.nameBytes = this.names.bytes;
    c.addrBytes = this.addresses.bytes;
    return c;
  }

  /** The points collected since the last write, (lat, lng) pairs in one new array. */
  private sendPoints(): void {
    const from = this.sent, to = this.n;
    if (to === from || !this.layout) return;
    const { lat, lng } = this.cols;
    const pairs = new Float64Array(2 * (to - from));
    for (let i = from, k = 0; i < to; i++, k += 2) {
      pairs[k] = lat[i]!;
      pairs[k + 1] = lng[i]!;
    }
    this.layout.send(pairs);
    this.sent = to;
  }

  /** What was collected is no longer needed here once written or laid out: its memory goes. */
  private release(): void {
    this.cols = allocateColumns(0);
    this.names = new NameBytes();
    this.addresses = new NameBytes();
  }

  private grow(): void {
    this.cap *= 2;
    const old = this.cols;
    const c = allocateColumns(this.cap);
    for (const k of ['lat', 'lng', 'score', 'flags', 'site', 'state', 'idNum', 'idLen', 'nameStart', 'addrStart'] as const) (c[k] as Float64Array).set(old[k] as Float64Array);
    c.states = old.states;
    c.idOther = old.idOther;
    this.cols = c;
  }
}
