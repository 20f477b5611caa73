import { Database } from 'bun:sqlite';
import { FacilityReads, SUMMARY_COLUMNS, type FacilityDetail } from './facility-reads';
import { HistoryReader } from './history-tables/history-reader';
import type { HistoryEntry, Release, ScoreChange } from './history-tables/model';
import type { ReleaseChange } from './history-tables/release-changes';
import { ListReads, type BriefWithPeers, type PlacedRow, type UnplacedRow } from './list-reads';
import type { FacilityBrief, FacilitySummary, IndexInfo, Location } from './model';
import { IndexOpenError, openIndexFile, readIndexHeader } from './open-index';
import { SearchReader } from './search-tables/reader';
import { ownSearchTables } from './search-tables/file';
import { StoredLookup } from './stored-lookup';
import { BesideScore } from './beside-score';
import { UnmappedReads, type UnplacedFacility } from './unmapped-reads';

export { IndexOpenError } from './open-index';
export type { FacilityDetail } from './facility-reads';
export { locationOf } from './facility-reads';
export type { BriefWithPeers, PlacedRow } from './list-reads';

/**
 * The read-only facility index: the one way into an index file. Every SQL statement on it is in
 * src/index/ (the readers below, prepared once); every method takes and returns plain values.
 */
export class FacilityIndex {
  readonly info: IndexInfo;
  /** The keys of the stored inputs' values (./inputs-codec.ts). */
  readonly inputsKeys: readonly string[];
  /** Where the search tables are, in words, for the start and reload log lines (./search/file.ts). */
  readonly searchTables: string;
  /** A lookup's stored answer: row, score change, programs, peers and explanation (./stored-lookup.ts). */
  readonly stored: StoredLookup;
  /**
   * The content of the release's area file (`<index>.area`) when the index is not a file it can lie
   * beside: the binary's embedded sample (./bundled.ts). Null otherwise: serve looks beside the file.
   */
  areaFile: Uint8Array | null = null;
  /** True when its search file is beside it but damaged (./search/file.ts): served without search at start, refused by a reload. */
  searchDamaged = false;
  private readonly facilities: FacilityReads;
  private readonly lists: ListReads;
  private readonly unmapped: UnmappedReads;
  private readonly history: HistoryReader;
  private searchReader: SearchReader | null | undefined;

  /** `searchTables`: where open() found them (an attached search file); by default the index's own. */
  constructor(
    private readonly db: Database,
    searchTables?: string,
  ) {
    ({ info: this.info, inputsKeys: this.inputsKeys } = readIndexHeader(db));
    try {
      this.searchTables = searchTables ?? ownSearchTables(db);
      const beside = new BesideScore(db);
      this.stored = new StoredLookup(db, SUMMARY_COLUMNS, this.info.score_version, undefined, beside);
      this.facilities = new FacilityReads(db, this.inputsKeys, this.stored, beside);
      this.lists = new ListReads(db, this.info.score_version);
      this.unmapped = new UnmappedReads(db);
      this.history = new HistoryReader(db, this.info.score_version);
    } catch (e) {
      throw new IndexOpenError(`not a facility index (${(e as Error).message})`);
    }
  }

  /** Opens an index file read-only; fails now (not at the first request) if it is missing, corrupt or of another format. */
  static open(path: string): FacilityIndex {
    const { db, searchTables, searchDamaged } = openIndexFile(path);
    try {
      const index = new FacilityIndex(db, searchTables);
      index.searchDamaged = searchDamaged;
      return index;
    } catch (e) {
      db.close(); // a refused file is not left locked (the connection holds an exclusive lock)
      throw e;
    }
  }

  /** An index held in memory from a file's bytes (the embedded sample, a worker's copy), read-only. */
  static fromBytes(bytes: Uint8Array): FacilityIndex {
    return new FacilityIndex(Database.deserialize(bytes, true));
  }

  /** The file the index was opened from; null for one held in memory. */
  get file(): string | null {
    const name = this.db.filename;
    return name === '' || name === ':memory:' ? null : name;
  }

  /** The index as the bytes of a file (for a worker thread to open its own copy of one held in memory). */
  bytes(): Uint8Array {
    return this.db.serialize();
  }

  /** The row without its score inputs: what a lookup returns, without parsing JSON it will not use. */
  getSummary(registryId: string): FacilitySummary | null {
    return this.facilities.summary(registryId);
  }

  /** The first `limit` facilities in registry ID order (the demo's example addresses are picked among them). */
  firstSummaries(limit: number): FacilitySummary[] {
    return this.facilities.first(limit);
  }

  /** The full row (score inputs parsed, programs as new objects) with its industry peers: what a report explains. */
  getDetail(registryId: string): FacilityDetail | null {
    return this.facilities.detail(registryId);
  }

  /** Facilities filed under a normalised address key (src/demo/address.ts), lowest registry ID first. */
  findByAddressKey(key: string): FacilitySummary[] {
    return this.facilities.byAddress(key);
  }

  /** The briefs of those `ids` that are in the index, keyed by ID, read in one statement; unknown IDs are absent. */
  getBriefs(ids: readonly string[]): Map<string, FacilityBrief> {
    return this.lists.briefs(ids);
  }

  /**
   * getBriefs plus each facility's industry peers and score change, in one statement (portfolio
   * items); `locations`, when given, receives their locations (the export forms).
   */
  getBriefsWithPeers(ids: readonly string[], locations?: Map<string, Location>): Map<string, BriefWithPeers> {
    return this.lists.briefsAndPeers(ids, locations);
  }

  /** The WGS84 locations of those `ids` that are in the index (null: no coordinates), keyed by ID (the export forms' coordinates). */
  getLocations(ids: readonly string[]): Map<string, Location> {
    return this.lists.locations(ids);
  }

  /** Facilities without coordinates whose ZIP5 is `zip`, with their site facts, lowest registry ID first. */
  unmappedInZip(zip: string): UnplacedFacility[] {
    return this.unmapped.inZips([zip]).get(zip) ?? [];
  }

  /** Facilities with coordinates, counted now (the area search sizes its arrays by it). */
  placedCount(): number {
    return this.lists.placedCount();
  }

  /** index_meta `evidence_reported`: the evidence keys every source had a column for. */
  get evidenceReported(): ReadonlySet<string> {
    return this.facilities.evidenceReported;
  }

  /** Every facility without coordinates, as the area index keeps them (src/index/area/unplaced.ts). */
  unplacedRows(): IterableIterator<UnplacedRow> {
    return this.lists.unplaced();
  }

  /** Every placed facility's place, score and flag, in registry_id order (the primary key's order); never one without coordinates. */
  placedRows(): IterableIterator<PlacedRow> {
    return this.lists.placed();
  }

  /** Every release this index carries, oldest first; the last is its own data (GET /api/v1/status). */
  releases(): readonly Release[] {
    return this.history.releases();
  }

  /** The facility's history entries, newest first; empty when it was never in any release. */
  historyOf(registryId: string): HistoryEntry[] {
    return this.history.historyOf(registryId, this.getSummary(registryId));
  }

  /** The facility's `score_change` (./history/score-change.ts); null too when it is not in the index. */
  scoreChangeOf(registryId: string): ScoreChange {
    return this.history.scoreChangeOf(registryId);
  }

  /** The changes of release `seq` among `ids` (src/index/history-tables/release-changes.ts). */
  changesInReleaseFor(seq: number, ids: readonly string[]): ReleaseChange[] {
    return this.history.changesInReleaseFor(seq, ids);
  }

  /** The changes of `ids` in the releases after `afterSeq` up to `uptoSeq`, oldest release first. */
  changesOfIds(ids: readonly string[], afterSeq: number, uptoSeq: number): ReleaseChange[] {
    return this.history.changesOfIds(ids, afterSeq, uptoSeq);
  }

  /** The search tables' reader (./search/reader.ts), prepared at the first call; null when the index has none usable. */
  search(): SearchReader | null {
    if (this.searchReader === undefined) this.searchReader = SearchReader.of(this.db);
    return this.searchReader;
  }

  /** Whether the metadata table still answers (GET /readyz). Throws once the database is closed:
   * `db.query` is a cached statement, which fails then; a kept prepared statement would not. */
  answers(): boolean {
    return this.db.query('SELECT 1 AS one FROM index_meta LIMIT 1').get() !== null;
  }

  close(): void {
    this.db.close();
  }
}

/**
 * The index's SQLite connection, for tests and scripts that check a file with SQL of their own.
 * Nothing under src/ outside src/index/ calls it (test/tooling/index-boundary.test.ts): there the
 * index answers only through its methods.
 */
export function connectionOf(index: FacilityIndex): Database {
  return index['db'];
}
