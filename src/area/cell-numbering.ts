import { latLngToCell } from 'h3-js';

/** Each facility's cell, as a number into `names` (the cells' H3 index strings, numbered as first met). */
export type CellNumbers = { cell: Uint32Array; names: string[] };

/**
 * The cells of facilities taken one at a time: the H3 call and the cell-name→number bookkeeping of
 * the area layout (./spatial-index.ts). The layout takes them in one loop; the layout process takes
 * them as ingest streams its points, during the load (./spatial-layout-process.ts).
 */
export class CellNumbering {
  private readonly ids = new Map<string, number>();
  private readonly names: string[] = [];
  private cell: Uint32Array;
  count = 0;

  constructor(private readonly res: number, expected = 1 << 16) {
    this.cell = new Uint32Array(Math.max(expected, 1));
  }

  /** The next facility's cell: `latLngToCell` at the resolution itself, never a parent of a finer cell (the two disagree for a few percent of points). */
  add(lat: number, lng: number): void {
    const i = this.count;
    // Each H3 call leaves a few short strings behind, collected every 2^18 facilities (a
    // young-generation pass, milliseconds): the national layout alone raised RSS by 816 MiB with it
    // against 1,024 MiB without (one run each, docs/operations.md).
    if ((i & 0x3ffff) === 0x3ffff) Bun.gc(false);
    const name = latLngToCell(lat, lng, this.res);
    let c = this.ids.get(name);
    if (c === undefined) this.ids.set(name, (c = this.names.push(name) - 1));
    if (i === this.cell.length) {
      const more = new Uint32Array(this.cell.length * 2);
      more.set(this.cell);
      this.cell = more;
    }
    this.cell[i] = c;
    this.count = i + 1;
  }

  /** The numbers so far, in the order added, or permuted: position k holds the cell of facility `order[k]`. */
  numbers(order: Uint32Array | null = null): CellNumbers {
    const n = this.count;
    if (order === null) return { cell: this.cell.subarray(0, n), names: this.names };
    if (order.length !== n) throw new Error(`${order.length} facilities to put in order, ${n} cells`);
    const cell = new Uint32Array(n);
    for (let k = 0; k < n; k++) cell[k] = this.cell[order[k]!]!;
    return { cell, names: this.names };
  }
}
