/**
 * The k best facilities seen so far, ordered by the key (a, b, rank) ascending: a max-heap whose
 * root is the worst kept entry, so a candidate is compared with one entry and most are dropped at once.
 * sort=distance uses (distance, 0, rank); sort=score uses (score, distance, rank). `rank` is the
 * facility's position in registry_id order, so no two keys are ever equal and results are deterministic.
 */
export class TopK {
  readonly a: Float64Array;
  readonly b: Float64Array;
  readonly rank: Uint32Array;
  readonly pos: Uint32Array;
  size = 0;

  constructor(readonly k: number) {
    this.a = new Float64Array(k);
    this.b = new Float64Array(k);
    this.rank = new Uint32Array(k);
    this.pos = new Uint32Array(k);
  }

  get full(): boolean {
    return this.size === this.k;
  }

  /** Primary key of the worst kept entry (Infinity while not full). */
  get worstA(): number {
    return this.size === this.k ? this.a[0]! : Infinity;
  }

  /** Offers a candidate; keeps it if it is among the k best so far. */
  offer(a: number, b: number, rank: number, pos: number): void {
    if (this.k === 0) return;
    if (this.size < this.k) {
      let i = this.size++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!less(this.a[parent]!, this.b[parent]!, this.rank[parent]!, a, b, rank)) break;
        this.move(parent, i);
        i = parent;
      }
      this.put(i, a, b, rank, pos);
      return;
    }
    if (!less(a, b, rank, this.a[0]!, this.b[0]!, this.rank[0]!)) return;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= this.size) break;
      const r = l + 1;
      const worse = r < this.size && less(this.a[l]!, this.b[l]!, this.rank[l]!, this.a[r]!, this.b[r]!, this.rank[r]!) ? r : l;
      if (!less(a, b, rank, this.a[worse]!, this.b[worse]!, this.rank[worse]!)) break;
      this.move(worse, i);
      i = worse;
    }
    this.put(i, a, b, rank, pos);
  }

  /** Positions of the kept entries, best first. */
  sorted(): { pos: number; a: number; b: number }[] {
    const out: { pos: number; a: number; b: number; rank: number }[] = [];
    for (let i = 0; i < this.size; i++) out.push({ pos: this.pos[i]!, a: this.a[i]!, b: this.b[i]!, rank: this.rank[i]! });
    out.sort((x, y) => (less(x.a, x.b, x.rank, y.a, y.b, y.rank) ? -1 : 1));
    return out;
  }

  private move(from: number, to: number): void {
    this.a[to] = this.a[from]!;
    this.b[to] = this.b[from]!;
    this.rank[to] = this.rank[from]!;
    this.pos[to] = this.pos[from]!;
  }

  private put(i: number, a: number, b: number, rank: number, pos: number): void {
    this.a[i] = a;
    this.b[i] = b;
    this.rank[i] = rank;
    this.pos[i] = pos;
  }
}

function less(a1: number, b1: number, r1: number, a2: number, b2: number, r2: number): boolean {
  return a1 < a2 || (a1 === a2 && (b1 < b2 || (b1 === b2 && r1 < r2)));
}
