import type { Database } from 'bun:sqlite';
import { SUMMARY_COLUMNS, toSummary, type RawSummary } from './facility-reads';
import type { FacilitySummary } from './model';

/** A facility without coordinates as a site report lists it: the row and its site facts (./site-facts.ts). */
export type UnplacedFacility = FacilitySummary & { site_facts: number };

/**
 * Facilities without coordinates, by ZIP5 (a site report's unmapped list, which looks in every ZIP
 * around a site): through the partial index `facility_unplaced_zip` (./schema.ts), a small probe
 * per ZIP whatever the number of placed facilities there, every ZIP of a report in one statement
 * (a statement per ZIP cost several times as much), each row with its site facts, so the list reads
 * nothing more per facility.
 */
export class UnmappedReads {
  private readonly byZips;

  constructor(db: Database) {
    this.byZips = db.prepare<RawSummary & { site_facts: number; zip5: string }, [string]>(
      `SELECT ${SUMMARY_COLUMNS}, f.site_facts, substr(f.fac_zip, 1, 5) AS zip5 FROM facility f INDEXED BY facility_unplaced_zip
       WHERE substr(f.fac_zip, 1, 5) IN (SELECT value FROM json_each(?1)) AND f.lat IS NULL ORDER BY f.registry_id`,
    );
  }

  /** Those in each of `zips` (5 digits; others have none), lowest registry ID first; a ZIP with none is absent. */
  inZips(zips: readonly string[]): Map<string, UnplacedFacility[]> {
    const out = new Map<string, UnplacedFacility[]>();
    const wanted = zips.filter((z) => /^\d{5}$/.test(z));
    if (wanted.length === 0) return out;
    for (const r of this.byZips.all(JSON.stringify(wanted))) {
      const { zip5, ...row } = r;
      let list = out.get(zip5);
      if (list === undefined) out.set(zip5, (list = []));
      list.push(toSummary(row) as UnplacedFacility);
    }
    return out;
  }
}
