import { LRUCache } from 'lru-cache';

type Entry = { createdAt: number; pdf: Uint8Array };

/**
 * The report cache's memory tier: the most recently used entries, each as the PDF bytes and the
 * time it was rendered, up to a byte budget; least recently used go first (lru-cache, `maxSize`).
 * Only what is on disk (stored or read back, checksum verified) is held, so it never serves a PDF
 * the disk cache would not: it only skips reading and checking the file again. A large site report
 * read from disk cost several times a dossier's hit; from here both cost a lookup.
 */
export class HotEntries {
  private readonly entries: LRUCache<string, Entry>;
  /** Served from memory (monotonic): fcs_report_cache_memory_hits_total. */
  hits = 0;

  constructor(private readonly maxBytes: number) {
    // the library needs a positive budget; with none (0) nothing is ever set
    this.entries = new LRUCache<string, Entry>({ maxSize: Math.max(1, maxBytes), sizeCalculation: (e) => e.pdf.byteLength });
  }

  /** Bytes of the PDFs held now. */
  get bytes(): number {
    return this.entries.calculatedSize;
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * The entry under `key` when it is younger than `ttlMs` at `now`; an older one is dropped. The age
   * counts from the render (the disk entry's time, on the service's clock), not from when it was
   * held here, so the check is this class's, not the library's own TTL.
   */
  get(key: string, now: number, ttlMs: number): Uint8Array | null {
    const e = this.entries.get(key);
    if (e === undefined) return null;
    const age = now - e.createdAt;
    if (age < 0 || age >= ttlMs) {
      this.entries.delete(key);
      return null;
    }
    this.hits++;
    return e.pdf;
  }

  /** Holds `pdf` (its own copy when it is a view of a larger buffer, so the budget counts what is kept). */
  set(key: string, createdAt: number, pdf: Uint8Array): void {
    this.entries.delete(key);
    // an empty PDF is never rendered, and the library counts no entry of size 0
    if (pdf.byteLength === 0 || pdf.byteLength > this.maxBytes) return;
    const own = pdf.byteLength === pdf.buffer.byteLength ? pdf : pdf.slice();
    this.entries.set(key, { createdAt, pdf: own });
  }

  /** Forgets `key` (its file was found corrupt or gone). */
  drop(key: string): void {
    this.entries.delete(key);
  }
}
