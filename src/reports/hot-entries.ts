/**
 * The report cache's memory tier: the most recently used entries, each as the PDF bytes and the
 * time it was rendered, up to a byte budget; least recently used go first. Only what is on disk
 * (stored or read back, checksum verified) is held, so it never serves a PDF the disk cache would
 * not: it only skips reading and checking the file again. A large site report read from disk
 * cost several times a dossier's hit; from here both cost a lookup.
 */
export class HotEntries {
  /** Map order is use order: a hit is deleted and set again, so the first key is the least recently used. */
  private readonly entries = new Map<string, { createdAt: number; pdf: Uint8Array }>();
  private held = 0;
  /** Served from memory (monotonic): fcs_report_cache_memory_hits_total. */
  hits = 0;

  constructor(private readonly maxBytes: number) {}

  /** Bytes of the PDFs held now. */
  get bytes(): number {
    return this.held;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The entry under `key` when it is younger than `ttlMs` at `now`; an older one is dropped. */
  get(key: string, now: number, ttlMs: number): Uint8Array | null {
    const e = this.entries.get(key);
    if (e === undefined) return null;
    this.entries.delete(key);
    const age = now - e.createdAt;
    if (age < 0 || age >= ttlMs) {
      this.held -= e.pdf.byteLength;
      return null;
    }
    this.entries.set(key, e);
    this.hits++;
    return e.pdf;
  }

  /** Holds `pdf` (its own copy when it is a view of a larger buffer, so the budget counts what is kept). */
  set(key: string, createdAt: number, pdf: Uint8Array): void {
    if (pdf.byteLength > this.maxBytes) return;
    this.drop(key);
    const own = pdf.byteLength === pdf.buffer.byteLength ? pdf : pdf.slice();
    this.entries.set(key, { createdAt, pdf: own });
    this.held += own.byteLength;
    for (const [k, e] of this.entries) {
      if (this.held <= this.maxBytes) break;
      this.entries.delete(k);
      this.held -= e.pdf.byteLength;
    }
  }

  /** Forgets `key` (its file was found corrupt or gone). */
  drop(key: string): void {
    const e = this.entries.get(key);
    if (e === undefined) return;
    this.entries.delete(key);
    this.held -= e.pdf.byteLength;
  }
}
