import type { Database } from 'bun:sqlite';

/**
 * How search docids are numbered (docs/search.md, "The search tables").
 *
 * Docids follow (overall_score, registry_id), so FTS5 yields a query's matches in the score order.
 * A docid is `score * BUCKET + rank`, rank being the facility's 1-based place among the facilities of
 * the same score in registry-ID order. Unlike a plain 1..N numbering, this can be assigned while the
 * rows stream in (ingest builds the search tables on a thread of their own during the load:
 * ./build.ts), because it needs no count of lower scores. Readers that need a facility's
 * place in the whole order (the word planner's estimates, evenly spread samples) go through
 * `DocidSpace`, which maps docids to 1..N positions.
 */
export const BUCKET = 2 ** 32;

/** The docid of the `rank`-th facility (1-based, registry-ID order) of those scoring `score`. */
export function docidOf(score: number, rank: number): number {
  return score * BUCKET + rank;
}

/** The docids of one index, as places 1..total in the (overall_score, registry_id) order. */
export class DocidSpace {
  /** Per score present, ascending: its first docid and the places before it. */
  private constructor(
    readonly total: number,
    private readonly starts: number[],
    private readonly before: number[],
    private readonly counts: number[],
  ) {}

  /**
   * One descent of search_doc's key per score present (scores are few), so an index opens without
   * counting its rows.
   */
  static of(db: Database): DocidSpace {
    const next = db.prepare<{ docid: number }, [number]>('SELECT docid FROM search_doc WHERE docid >= ?1 ORDER BY docid LIMIT 1');
    const last = db.prepare<{ docid: number | null }, [number]>('SELECT max(docid) AS docid FROM search_doc WHERE docid < ?1');
    const starts: number[] = [];
    const before: number[] = [];
    const counts: number[] = [];
    let total = 0;
    for (let row = next.get(0); row; ) {
      const start = Math.floor(row.docid / BUCKET) * BUCKET;
      const count = last.get(start + BUCKET)!.docid! - start;
      starts.push(start);
      before.push(total);
      counts.push(count);
      total += count;
      row = next.get(start + BUCKET);
    }
    return new DocidSpace(total, starts, before, counts);
  }

  /** The 1-based place of `docid` in the whole order. */
  position(docid: number): number {
    const start = Math.floor(docid / BUCKET) * BUCKET;
    const i = this.bucketOf(start);
    return i < 0 ? 0 : this.before[i]! + (docid - start);
  }

  /** The docid at place `position` (1..total). */
  docidAt(position: number): number {
    if (this.starts.length === 0) return position; // no facilities: no places
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.before[mid]! < position) lo = mid;
      else hi = mid - 1;
    }
    return this.starts[lo]! + Math.min(position - this.before[lo]!, this.counts[lo]!);
  }

  private bucketOf(start: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const s = this.starts[mid]!;
      if (s === start) return mid;
      if (s < start) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }
}
