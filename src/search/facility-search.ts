import type { Database } from 'bun:sqlite';
import { sha256Hex } from '../hash';
import type { FacilityIndex } from '../index/facility-index';
import { matchExpression } from './match';
import type { CursorKey } from './cursor';
import type { SearchRequest } from './query';

/** A facility found, with its sort key and its location (for the export forms). */
export type SearchHit = {
  registry_id: string;
  fac_name: string;
  fac_city: string;
  fac_state: string;
  overall_score: number;
  active_enforcement: boolean;
  lat: number;
  lng: number;
  key: CursorKey;
};

/** Column weights of the relevance order (name, street, city, ZIP): a word in the name counts most. */
const BM25 = 'bm25(facility_search, 4.0, 1.0, 2.0, 2.0)';

// Every filter is a bound parameter that is NULL when unused: one statement per sort, never SQL from input.
const MATCHES = (key: string) => `
  SELECT d.registry_id, ${key} AS k
  FROM facility_search JOIN search_doc d ON d.docid = facility_search.rowid
  WHERE facility_search MATCH ?1
    AND (?2 IS NULL OR d.fac_state = ?2)
    AND (?3 IS NULL OR substr(d.fac_naics, 1, length(?3)) = ?3)
    AND (?4 IS NULL OR d.overall_score >= ?4)
    AND (?5 IS NULL OR d.overall_score <= ?5)
    AND (?6 IS NULL OR d.active_enforcement = ?6)`;
const PAGE = (key: string) => `
  SELECT registry_id, k FROM (${MATCHES(key)})
  WHERE ?7 IS NULL OR k > ?7 OR (k = ?7 AND registry_id > ?8)
  ORDER BY k, registry_id LIMIT ?9`;

type Row = Omit<SearchHit, 'key' | 'active_enforcement'> & { active_enforcement: number };

/**
 * The read side of the search tables (src/index/search-table.ts) on one open index; statements
 * prepared once. Pages are keyset pages: each starts strictly after the last (sort key,
 * registry_id) of the previous one, so no facility is skipped or repeated while the index is the same.
 */
export class FacilitySearch {
  /** Identifies the index file's content; a cursor made on another one is refused (cursor.ts). */
  readonly fingerprint: string;
  private readonly byRelevance;
  private readonly byScore;
  private readonly details;

  /** The search over `index`, or null when the index has no search tables (format 3, built before search existed). */
  static open(index: FacilityIndex): FacilitySearch | null {
    const has = index.db.query("SELECT 1 AS ok FROM sqlite_master WHERE name = 'facility_search'").get();
    return has ? new FacilitySearch(index) : null;
  }

  private constructor(index: FacilityIndex) {
    const db: Database = index.db;
    this.fingerprint = sha256Hex(JSON.stringify(index.info)).slice(0, 16);
    this.byRelevance = db.prepare<{ registry_id: string; k: number }, (string | number | null)[]>(PAGE(BM25));
    this.byScore = db.prepare<{ registry_id: string; k: number }, (string | number | null)[]>(PAGE('d.overall_score'));
    this.details = db.prepare<Row, [string]>(
      `SELECT registry_id, fac_name, fac_city, fac_state, overall_score, active_enforcement, lat, lng
       FROM facility WHERE registry_id IN (SELECT value FROM json_each(?1))`,
    );
  }

  /** Up to `limit` facilities of the page after `r.after`, plus whether another page follows. */
  page(r: SearchRequest): { hits: SearchHit[]; more: boolean } {
    const statement = r.sort === 'score' ? this.byScore : this.byRelevance;
    const keys = statement.all(
      matchExpression(r.words),
      r.state,
      r.naics,
      r.minScore,
      r.maxScore,
      r.activeEnforcement === null ? null : r.activeEnforcement ? 1 : 0,
      r.after?.value ?? null,
      r.after?.registryId ?? null,
      r.limit + 1,
    );
    const more = keys.length > r.limit;
    if (more) keys.pop();
    const rows = new Map(this.details.all(JSON.stringify(keys.map((k) => k.registry_id))).map((row) => [row.registry_id, row]));
    const hits = keys.map(({ registry_id, k }) => {
      const row = rows.get(registry_id);
      // Both tables come from the same build of this read-only file: a miss is a bug.
      if (!row) throw new Error(`search table and facility table disagree about ${registry_id}`);
      return { ...row, active_enforcement: row.active_enforcement === 1, key: { value: k, registryId: registry_id } };
    });
    return { hits, more };
  }
}
