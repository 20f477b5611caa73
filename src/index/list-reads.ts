import type { Database } from 'bun:sqlite';
import { locationOf, PEER_COLUMNS, peersOf, type RawPeers } from './facility-reads';
import type { ScoreChange } from './history-tables/model';
import { manyChangeEntriesStatement, scoreChangesOf } from './history-tables/score-change';
import type { FacilityBrief, Location } from './model';
import type { Peers } from './peers';
import { SITE_BIT } from './site-facts';
import { DECLARED_COLUMNS, DERIVED_FROM_EVIDENCE, type ColumnKey, type DeclaredValues } from './declared-columns';

/** What a placed row reads beyond the area's own fields: the declared columns, and the evidence when a declared field derives from it. */
const PLACED_EXTRA = [...DECLARED_COLUMNS, DERIVED_FROM_EVIDENCE ? 'evidence AS evidence_json' : 'NULL AS evidence_json'].join(', ');

/** A portfolio item: the brief plus peers and score change. */
export type BriefWithPeers = FacilityBrief & { peers: Peers | null; score_change: ScoreChange };
/**
 * A facility table row as the area search reads it (`placedRows`): the flag as SQLite stores it, 0
 * or 1; the declared columns (NULL: not stated) and the stored evidence they derive the others from.
 */
export type PlacedRow = {
  registry_id: string; fac_name: string; fac_street: string; fac_city: string; fac_zip: string; lat: number; lng: number;
  overall_score: number; active_enforcement: number; fac_state: string; site_facts: number; evidence_json: string | null;
} & { [K in ColumnKey]: DeclaredValues[K] | null };
/** A facility table row without coordinates as the area index keeps it (`unplacedRows`). */
export type UnplacedRow = Omit<PlacedRow, 'lat' | 'lng' | 'evidence_json' | ColumnKey> & { lat: null; lng: null };
type RawBrief = Omit<FacilityBrief, 'active_enforcement' | 'data_sufficient'> & { active_enforcement: number; site_facts: number };
type StoredPlace = { lat: number | null; lng: number | null };
const sufficient = (siteFacts: number) => (siteFacts & SITE_BIT.insufficientData) === 0;

/**
 * Reads of many facilities at once: a portfolio's or an export's IDs, and the whole table for the
 * area search's spatial index. The IDs go in as one JSON array through json_each, never spliced into SQL.
 */
export class ListReads {
  private readonly briefsByIds;
  private readonly briefsWithPeers;
  private readonly locationsByIds;
  /** The facilities' history entries for their score changes; null on a first release (no history rows). */
  private readonly changeEntries;

  constructor(
    private readonly db: Database,
    private readonly scoreVersion: string,
  ) {
    const ids = 'IN (SELECT value FROM json_each(?))';
    this.briefsByIds = db.prepare<RawBrief, [string]>(`SELECT registry_id, fac_name, overall_score, active_enforcement, site_facts FROM facility WHERE registry_id ${ids}`);
    this.briefsWithPeers = db.prepare<RawBrief & StoredPlace & RawPeers, [string]>(
      `SELECT f.registry_id, f.fac_name, f.overall_score, f.active_enforcement, f.site_facts, f.lat, f.lng, ${PEER_COLUMNS} FROM facility f
       LEFT JOIN peer_rank p ON p.naics = f.fac_naics AND p.overall_score = f.overall_score WHERE f.registry_id ${ids}`,
    );
    this.changeEntries = manyChangeEntriesStatement(db);
    this.locationsByIds = db.prepare<{ registry_id: string } & StoredPlace, [string]>(`SELECT registry_id, lat, lng FROM facility WHERE registry_id ${ids}`);
  }

  /** The briefs of those `ids` that are in the index, keyed by ID, read in one statement; unknown IDs are absent. */
  briefs(ids: readonly string[]): Map<string, FacilityBrief> {
    const out = new Map<string, FacilityBrief>();
    if (ids.length === 0) return out;
    for (const r of this.briefsByIds.all(JSON.stringify(ids))) {
      const { registry_id, fac_name, overall_score } = r;
      out.set(registry_id, { registry_id, fac_name, overall_score, active_enforcement: r.active_enforcement === 1, data_sufficient: sufficient(r.site_facts) });
    }
    return out;
  }

  /** briefs plus each facility's industry peers and score change; `locations`, when given, receives their locations from the same read. */
  briefsAndPeers(ids: readonly string[], locations?: Map<string, Location>): Map<string, BriefWithPeers> {
    const out = new Map<string, BriefWithPeers>();
    if (ids.length === 0) return out;
    const json = JSON.stringify(ids);
    const changes = this.changeEntries ? scoreChangesOf(this.changeEntries.all(json), this.scoreVersion) : null;
    for (const r of this.briefsWithPeers.all(json)) {
      locations?.set(r.registry_id, locationOf(r));
      const { registry_id, fac_name, overall_score } = r;
      out.set(registry_id, { registry_id, fac_name, overall_score, active_enforcement: r.active_enforcement === 1, peers: peersOf(r), score_change: changes?.get(registry_id) ?? null, data_sufficient: sufficient(r.site_facts) });
    }
    return out;
  }

  /** The WGS84 locations of those `ids` that are in the index (null: no coordinates), keyed by ID. */
  locations(ids: readonly string[]): Map<string, Location> {
    const out = new Map<string, Location>();
    if (ids.length === 0) return out;
    for (const r of this.locationsByIds.all(JSON.stringify(ids))) out.set(r.registry_id, locationOf(r));
    return out;
  }

  /** Facilities with coordinates, counted now (the area search sizes its arrays by it). */
  placedCount(): number {
    return this.db.query<{ n: number }, []>('SELECT count(*) AS n FROM facility WHERE lat IS NOT NULL').get()!.n;
  }

  /** Every facility without coordinates: what the area index keeps of them for a site report's unmapped list (src/index/area/unplaced.ts). */
  unplaced(): IterableIterator<UnplacedRow> {
    return this.db
      .query<UnplacedRow, []>('SELECT registry_id, fac_name, fac_street, fac_city, fac_zip, lat, lng, overall_score, active_enforcement, fac_state, site_facts FROM facility INDEXED BY facility_unplaced_zip WHERE lat IS NULL')
      .iterate();
  }

  /** Every placed facility's place, address, score, flags and declared fields, in registry_id order; those without coordinates are never in the area search. */
  placed(): IterableIterator<PlacedRow> {
    return this.db
      .query<PlacedRow, []>(`SELECT registry_id, fac_name, fac_street, fac_city, fac_zip, lat, lng, overall_score, active_enforcement, fac_state, site_facts, ${PLACED_EXTRA} FROM facility WHERE lat IS NOT NULL ORDER BY registry_id`)
      .iterate();
  }
}
