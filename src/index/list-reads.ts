import type { Database } from 'bun:sqlite';
import { PEER_COLUMNS, peersOf, type RawPeers } from './facility-reads';
import type { ScoreChange } from './history/model';
import { SCORE_CHANGE_COLUMNS, SCORE_CHANGE_JOIN, scoreChangeOf, type ScoreChangeColumns } from './history/score-change';
import type { FacilityBrief } from './model';
import type { Peers } from './peers';

/** A portfolio item: the brief plus peers and score change. */
export type BriefWithPeers = FacilityBrief & { peers: Peers | null; score_change: ScoreChange };
/** A facility table row as the area search reads it (`placedRows`): the flag as SQLite stores it, 0 or 1. */
export type PlacedRow = { registry_id: string; fac_name: string; lat: number; lng: number; overall_score: number; active_enforcement: number; fac_state: string };
type RawBrief = Omit<FacilityBrief, 'active_enforcement'> & { active_enforcement: number };
type Location = { lat: number; lng: number };

/**
 * Reads of many facilities at once: a portfolio's or an export's IDs, and the whole table for the
 * area search's spatial index. The IDs go in as one JSON array through json_each, never spliced into SQL.
 */
export class ListReads {
  private readonly briefsByIds;
  private readonly briefsWithPeers;
  private readonly locationsByIds;

  constructor(
    private readonly db: Database,
    private readonly scoreVersion: string,
  ) {
    const ids = 'IN (SELECT value FROM json_each(?))';
    this.briefsByIds = db.prepare<RawBrief, [string]>(`SELECT registry_id, fac_name, overall_score, active_enforcement FROM facility WHERE registry_id ${ids}`);
    this.briefsWithPeers = db.prepare<RawBrief & Location & RawPeers & ScoreChangeColumns, [string, string]>(
      `SELECT f.registry_id, f.fac_name, f.overall_score, f.active_enforcement, f.lat, f.lng, ${PEER_COLUMNS}, ${SCORE_CHANGE_COLUMNS} FROM facility f
       LEFT JOIN peer_rank p ON p.naics = f.fac_naics AND p.overall_score = f.overall_score ${SCORE_CHANGE_JOIN} WHERE f.registry_id IN (SELECT value FROM json_each(?1))`,
    );
    this.locationsByIds = db.prepare<{ registry_id: string } & Location, [string]>(`SELECT registry_id, lat, lng FROM facility WHERE registry_id ${ids}`);
  }

  /** The briefs of those `ids` that are in the index, keyed by ID, read in one statement; unknown IDs are absent. */
  briefs(ids: readonly string[]): Map<string, FacilityBrief> {
    const out = new Map<string, FacilityBrief>();
    if (ids.length === 0) return out;
    // Rows come fresh from SQLite: the flag is converted in place (no second object per row: a
    // 500-ID portfolio allocates less, which is fewer garbage collections in its tail).
    for (const r of this.briefsByIds.all(JSON.stringify(ids))) {
      const brief = r as unknown as FacilityBrief;
      brief.active_enforcement = r.active_enforcement === 1;
      out.set(r.registry_id, brief);
    }
    return out;
  }

  /** briefs plus each facility's industry peers and score change; `locations`, when given, receives their locations from the same read. */
  briefsAndPeers(ids: readonly string[], locations?: Map<string, Location>): Map<string, BriefWithPeers> {
    const out = new Map<string, BriefWithPeers>();
    if (ids.length === 0) return out;
    for (const r of this.briefsWithPeers.all(JSON.stringify(ids), this.scoreVersion)) {
      locations?.set(r.registry_id, { lat: r.lat, lng: r.lng });
      const { registry_id, fac_name, overall_score } = r;
      out.set(registry_id, { registry_id, fac_name, overall_score, active_enforcement: r.active_enforcement === 1, peers: peersOf(r), score_change: scoreChangeOf(r) });
    }
    return out;
  }

  /** The WGS84 locations of those `ids` that are in the index, keyed by ID. */
  locations(ids: readonly string[]): Map<string, Location> {
    const out = new Map<string, Location>();
    if (ids.length === 0) return out;
    for (const r of this.locationsByIds.all(JSON.stringify(ids))) out.set(r.registry_id, { lat: r.lat, lng: r.lng });
    return out;
  }

  /** Rows of the facility table, counted now (the area search sizes its arrays by it). */
  count(): number {
    return this.db.query<{ n: number }, []>('SELECT count(*) AS n FROM facility').get()!.n;
  }

  /** Every facility's place, score and flag, in registry_id order (the primary key's order). */
  placed(): IterableIterator<PlacedRow> {
    return this.db.query<PlacedRow, []>('SELECT registry_id, fac_name, lat, lng, overall_score, active_enforcement, fac_state FROM facility ORDER BY registry_id').iterate();
  }
}
