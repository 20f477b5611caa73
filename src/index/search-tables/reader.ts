import type { Database } from 'bun:sqlite';
import type { FacilitySummary } from '../model';
import { DocidSpace } from './docids';

/** A facility's searched fields (name, street, city, ZIP) with its search docid. */
export type SearchFields = { docid: number; fac_name: string; fac_street: string; fac_city: string; fac_zip: string };

/** A candidate as read: the slim-row fields a hit and its ranking need, keyed by its docid (0 for a read by registry ID). */
export type SearchRow = Pick<FacilitySummary, 'registry_id' | 'fac_name' | 'fac_street' | 'fac_city' | 'fac_state' | 'fac_zip' | 'overall_score' | 'lat' | 'lng'> & {
  docid: number;
  active_enforcement: number;
  /** ../site-facts.ts bits (a hit shows whether the data is enough to judge). */
  site_facts: number;
};

/** The filters, each null when unused: state, NAICS prefix, lowest and highest score, enforcement flag (1 or 0). */
export type SearchFilters = [state: string | null, naics: string | null, minScore: number | null, maxScore: number | null, active: number | null];

// Every filter is a bound parameter that is NULL when unused: one statement per order, never SQL from input.
const filtersOn = (t: string) => `
    AND (?2 IS NULL OR ${t}.fac_state = ?2)
    AND (?3 IS NULL OR substr(${t}.fac_naics, 1, length(?3)) = ?3)
    AND (?4 IS NULL OR ${t}.overall_score >= ?4)
    AND (?5 IS NULL OR ${t}.overall_score <= ?5)
    AND (?6 IS NULL OR ${t}.active_enforcement = ?6)`;
const FIELDS = 'f.registry_id, f.fac_name, f.fac_street, f.fac_city, f.fac_state, f.fac_zip, f.overall_score, f.active_enforcement, f.lat, f.lng, f.site_facts';
const MATCHED = 'facility_search JOIN search_doc d ON d.docid = facility_search.rowid JOIN facility f ON f.registry_id = d.registry_id';
const BY_DOCIDS = 'search_doc d JOIN facility f ON f.registry_id = d.registry_id WHERE d.docid IN (SELECT value FROM json_each(?1))';

/**
 * The search tables' read side (./table.ts) on one open index, the same SQL whether the tables are
 * in the index or in its attached search file (./file.ts): the few named reads src/search/ plans,
 * ranks and pages with. Statements are prepared once; every argument is bound.
 */
export class SearchReader {
  /** The docids as places 1..total in the (overall_score, registry_id) order (./docids.ts). */
  readonly space: DocidSpace;
  private readonly first;
  private readonly firstFields;
  private readonly count;
  private readonly fields;
  private readonly candidates;
  private readonly byDocid;
  private readonly byId;
  private readonly countFiltered;

  /** The reader of `db`'s search tables, or null when it has none (its `.search` file is missing or of another build). */
  static of(db: Database): SearchReader | null {
    const has = db.query("SELECT 1 AS ok FROM pragma_table_list WHERE name = 'facility_search'").get() !== null;
    return has ? new SearchReader(db) : null;
  }

  private constructor(db: Database) {
    this.space = DocidSpace.of(db);
    this.first = db.prepare<{ docid: number }, [string, number]>('SELECT rowid AS docid FROM facility_search WHERE facility_search MATCH ?1 ORDER BY rowid LIMIT ?2');
    this.firstFields = db.prepare<SearchFields, [string, number]>(
      `SELECT d.docid, f.fac_name, f.fac_street, f.fac_city, f.fac_zip FROM ${MATCHED} WHERE facility_search MATCH ?1 ORDER BY facility_search.rowid LIMIT ?2`,
    );
    this.count = db.prepare<{ n: number }, [string, number]>('SELECT count(*) AS n FROM (SELECT rowid FROM facility_search WHERE facility_search MATCH ?1 LIMIT ?2)');
    this.fields = db.prepare<SearchFields, [string]>(`SELECT d.docid, f.fac_name, f.fac_street, f.fac_city, f.fac_zip FROM ${BY_DOCIDS}`);
    this.candidates = db.prepare<SearchRow, [string, ...SearchFilters]>(`SELECT d.docid, ${FIELDS} FROM ${BY_DOCIDS} ${filtersOn('d')}`);
    // FTS5 yields matches in rowid (docid) order, which is the score order: the walk stops after a page
    this.byDocid = db.prepare<SearchRow, [string, ...SearchFilters, number, number]>(
      `SELECT d.docid, ${FIELDS} FROM ${MATCHED} WHERE facility_search MATCH ?1 AND facility_search.rowid > ?7 ${filtersOn('d')} ORDER BY facility_search.rowid LIMIT ?8`,
    );
    this.byId = db.prepare<SearchRow, [string, ...SearchFilters]>(`SELECT 0 AS docid, ${FIELDS} FROM facility f WHERE f.registry_id = ?1 ${filtersOn('f')}`);
    this.countFiltered = db.prepare<{ n: number }, [string, ...SearchFilters, number]>(
      `SELECT count(*) AS n FROM (SELECT 1 FROM ${MATCHED} WHERE facility_search MATCH ?1 ${filtersOn('d')} LIMIT ?7)`,
    );
  }

  /** The docids of the first `limit` matches of an FTS5 expression, in docid order (no filters). */
  firstMatches(expression: string, limit: number): { docid: number }[] {
    return this.first.all(expression, limit);
  }

  /** The same matches with their searched fields. */
  firstMatchFields(expression: string, limit: number): SearchFields[] {
    return this.firstFields.all(expression, limit);
  }

  /** How many facilities the expression matches, counting stops at `limit`. */
  countUpTo(expression: string, limit: number): number {
    return this.count.get(expression, limit)!.n;
  }

  /** How many matches pass the filters, counting stops at `limit`. */
  countMatching(expression: string, filters: SearchFilters, limit: number): number {
    return this.countFiltered.get(expression, ...filters, limit)!.n;
  }

  /** The searched fields of the facilities of `docids` (a JSON array). */
  fieldsOf(docids: string): SearchFields[] {
    return this.fields.all(docids);
  }

  /** The facilities of `docids` (a JSON array) that pass the filters, in no order. */
  candidatesOf(docids: string, filters: SearchFilters): SearchRow[] {
    return this.candidates.all(docids, ...filters);
  }

  /** Up to `limit` matches after docid `after` that pass the filters, in docid order. */
  inDocidOrder(expression: string, filters: SearchFilters, after: number, limit: number): SearchRow[] {
    return this.byDocid.all(expression, ...filters, after, limit);
  }

  /** Every such match, read as the caller goes (it stops reading when it has a page). */
  walkDocidOrder(expression: string, filters: SearchFilters, after: number): IterableIterator<SearchRow> {
    return this.byDocid.iterate(expression, ...filters, after, -1);
  }

  /** The facility with registry ID `id` when it passes the filters, else null (docid 0: it is not read through the search tables). */
  byRegistryId(id: string, filters: SearchFilters): SearchRow | null {
    return this.byId.get(id, ...filters);
  }
}
