import type { Database } from 'bun:sqlite';
import { SUMMARY_COLUMNS, toSummary, type RawSummary } from './facility-reads';
import type { FacilitySummary } from './model';

/**
 * Facilities without coordinates, by ZIP (a site report's unmapped list). Asked through the search
 * tables (the ZIP is one of a facility's words), so no request scans `facility`. Null when this
 * index cannot hold any (`facility.lat NOT NULL`) or has no search tables to find a ZIP by.
 */
export class UnmappedReads {
  private readonly byZip;

  constructor(db: Database) {
    const lat = db.query<{ notnull: number }, []>("SELECT \"notnull\" FROM pragma_table_info('facility') WHERE name = 'lat'").get();
    const search = db.query("SELECT 1 AS ok FROM pragma_table_list WHERE name = 'facility_search'").get();
    this.byZip =
      !lat || lat.notnull === 1 || !search
        ? null
        : db.prepare<RawSummary, [string, string]>(
            `SELECT ${SUMMARY_COLUMNS} FROM facility_search JOIN search_doc d ON d.docid = facility_search.rowid JOIN facility f ON f.registry_id = d.registry_id
             WHERE facility_search MATCH ?1 AND f.lat IS NULL AND substr(f.fac_zip, 1, 5) = ?2 ORDER BY f.registry_id`,
          );
  }

  /** Lowest registry ID first; null when the index cannot hold facilities without coordinates. */
  inZip(zip: string): FacilitySummary[] | null {
    if (!this.byZip) return null;
    if (!/^\d{5}$/.test(zip)) return [];
    return this.byZip.all(`"${zip}"`, zip).map(toSummary);
  }
}
