import type { Database } from 'bun:sqlite';
import { SUMMARY_COLUMNS, toSummary, type RawSummary } from './facility-reads';
import type { FacilitySummary } from './model';

/**
 * Facilities without coordinates, by ZIP5 (a site report's unmapped list, which looks in every ZIP
 * around a site): through the partial index `facility_unplaced_zip` (./schema.ts), one small probe
 * per ZIP whatever the number of placed facilities there.
 */
export class UnmappedReads {
  private readonly byZip;

  constructor(db: Database) {
    this.byZip = db.prepare<RawSummary, [string]>(
      `SELECT ${SUMMARY_COLUMNS} FROM facility f INDEXED BY facility_unplaced_zip WHERE substr(f.fac_zip, 1, 5) = ?1 AND f.lat IS NULL ORDER BY f.registry_id`,
    );
  }

  /** Lowest registry ID first. */
  inZip(zip: string): FacilitySummary[] {
    if (!/^\d{5}$/.test(zip)) return [];
    return this.byZip.all(zip).map(toSummary);
  }
}
