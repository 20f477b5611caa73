import type { Database } from 'bun:sqlite';
import { SUMMARY_COLUMNS, toSummary, type RawSummary } from './facility-reads';
import type { FacilitySummary } from './model';

/** A facility without coordinates as a site report lists it: the row and its site facts (./site-facts.ts). */
export type UnplacedFacility = FacilitySummary & { site_facts: number };

/**
 * Facilities without coordinates, by ZIP5 (a site report's unmapped list, which looks in every ZIP
 * around a site): through the partial index `facility_unplaced_zip` (./schema.ts), one small probe
 * per ZIP whatever the number of placed facilities there, with the site facts of each, so the list
 * reads nothing more per facility.
 */
export class UnmappedReads {
  private readonly byZip;

  constructor(db: Database) {
    this.byZip = db.prepare<RawSummary & { site_facts: number }, [string]>(
      `SELECT ${SUMMARY_COLUMNS}, f.site_facts FROM facility f INDEXED BY facility_unplaced_zip WHERE substr(f.fac_zip, 1, 5) = ?1 AND f.lat IS NULL ORDER BY f.registry_id`,
    );
  }

  /** Lowest registry ID first. */
  inZip(zip: string): UnplacedFacility[] {
    if (!/^\d{5}$/.test(zip)) return [];
    return this.byZip.all(zip).map((r) => toSummary(r) as UnplacedFacility);
  }
}
