import type { Database } from 'bun:sqlite';
import { ReasonDecoder, type TemplateRow } from './explanation-codec';
import type { FacilitySummary } from './model';
import type { Peers } from './peers';

/** A Starter+ lookup's row: the slim row with its stored detail (facility-detail.ts; null only for a row ingest wrote none for). */
export type LookupRow = FacilitySummary & { detail: string | null };

/**
 * What index format 7 stores for a Starter+ lookup, and how it is read: the row and its detail in
 * one statement (the detail is a column of `facility`: as a side table read by key, in a join or a
 * subquery, it cost 0.8-1 µs more a lookup on the sample), the explanation templates read once at
 * open, and the peers (table peer_rank, a few thousand rows) kept in memory once read.
 */
export class StoredLookup {
  readonly reasons: ReasonDecoder;
  private readonly byId;
  private readonly peersByKey;
  /** peer_rank.peers by NAICS code and score, parsed once, filled as lookups need them (bounded by peer_rank's rows). */
  private readonly peers = new Map<string, (Peers | null)[]>();

  constructor(db: Database, summaryColumns: string) {
    this.reasons = new ReasonDecoder(db.query<{ id: number; pieces: string }, []>('SELECT id, pieces FROM reason_template').all().map((r): TemplateRow => [r.id, r.pieces]));
    this.byId = db.prepare<Omit<LookupRow, 'active_enforcement'> & { active_enforcement: number }, [string]>(`SELECT ${summaryColumns}, detail FROM facility f WHERE f.registry_id = ?`);
    this.peersByKey = db.prepare<{ peers: string }, [string, number]>('SELECT peers FROM peer_rank WHERE naics = ? AND overall_score = ?');
  }

  get(registryId: string): LookupRow | null {
    const r = this.byId.get(registryId);
    if (!r) return null;
    // rows come fresh from SQLite and are not shared: the flag is converted in place
    const row = r as unknown as LookupRow;
    row.active_enforcement = r.active_enforcement === 1;
    return row;
  }

  /** The facility's `peers`, null without a group (no NAICS code). Shared between lookups: read-only. */
  peersOf(naics: string, score: number): Peers | null {
    let byScore = this.peers.get(naics);
    if (!byScore) this.peers.set(naics, (byScore = []));
    let peers = byScore[score];
    if (peers === undefined) {
      const json = this.peersByKey.get(naics, score)?.peers;
      byScore[score] = peers = json === undefined ? null : (Object.freeze(JSON.parse(json)) as Peers);
    }
    return peers;
  }
}
