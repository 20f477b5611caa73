import type { Database } from 'bun:sqlite';
import type { FacilitySummary } from './model';

/** A facility without coordinates as a site report lists it: who and where, its score and flag, and its site facts (./site-facts.ts). */
export type UnplacedFacility = Pick<FacilitySummary, 'registry_id' | 'fac_name' | 'fac_street' | 'fac_city' | 'fac_state' | 'fac_zip' | 'overall_score' | 'active_enforcement'> & { site_facts: number };

type Values = [registry_id: string, fac_name: string, fac_street: string, fac_city: string, fac_state: string, fac_zip: string, overall_score: number, active_enforcement: number, site_facts: number, zip5: string];

/**
 * Facilities without coordinates, by ZIP5, through the partial index `facility_unplaced_zip`
 * (./schema.ts): a small probe per ZIP whatever the number of placed facilities there, only the
 * columns a site report lists, read as values. A report reads the copy the area file keeps beside
 * the area index (./area/unplaced.ts), made from the same rows.
 */
export class UnmappedReads {
  private readonly byZips;

  constructor(db: Database) {
    this.byZips = db.prepare<Record<string, unknown>, [string]>(
      `SELECT f.registry_id, f.fac_name, f.fac_street, f.fac_city, f.fac_state, f.fac_zip, f.overall_score, f.active_enforcement, f.site_facts, substr(f.fac_zip, 1, 5)
       FROM facility f INDEXED BY facility_unplaced_zip WHERE substr(f.fac_zip, 1, 5) IN (SELECT value FROM json_each(?1)) AND f.lat IS NULL ORDER BY f.registry_id`,
    );
  }

  /** Those in each of `zips` (5 digits; others have none), lowest registry ID first; a ZIP with none is absent. */
  inZips(zips: readonly string[]): Map<string, UnplacedFacility[]> {
    const out = new Map<string, UnplacedFacility[]>();
    const wanted = zips.filter((z) => /^\d{5}$/.test(z));
    if (wanted.length === 0) return out;
    for (const [registry_id, fac_name, fac_street, fac_city, fac_state, fac_zip, overall_score, active, site_facts, zip5] of this.byZips.values(JSON.stringify(wanted)) as unknown as Values[]) {
      let list = out.get(zip5);
      if (list === undefined) out.set(zip5, (list = []));
      list.push({ registry_id, fac_name, fac_street, fac_city, fac_state, fac_zip, overall_score, active_enforcement: active === 1, site_facts });
    }
    return out;
  }
}
