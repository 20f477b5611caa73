import { Database } from 'bun:sqlite';
import { attachSearchFile, ownSearchTables, SEARCH_SCHEMA } from './search-file';
import { existsSync } from 'node:fs';
import { HistoryReader } from '../history/history-reader';
import type { HistoryEntry, Release, ScoreChange } from '../history/model';
import { scoreChangeOf } from '../history/score-change';
import type { ScoreInputs } from '../scoring/model';
import type { FacilityBrief, FacilityRow, FacilitySummary, IndexInfo } from './model';
import { peersOfGroup, type Peers } from './peers';
import { decodePrograms } from './program-codec';
import { inputsOfStored } from './inputs-codec';
import { INDEX_FORMAT, READABLE_FORMATS } from './schema';
import { StoredLookup, type StoredDetailRef } from './stored-lookup';

type RawRow = Omit<FacilityRow, 'active_enforcement' | 'score_inputs'> & {
  active_enforcement: number;
  score_inputs: string;
  /** Format 7: facility.detail; formats 5-6: facility_programs.programs (program-codec.ts); null when the facility has none. */
  programs: StoredDetailRef | null;
};

const SUMMARY_COLUMNS = `f.registry_id, fac_name, fac_street, fac_city, fac_state, fac_zip, lat, lng, fac_naics, f.overall_score,
  active_enforcement, baseline, violation_frequency, penalty_severity, recency, repeat_offender, score_hash`;
/** Full rows join the score inputs kept beside the slim facility table (schema.ts). */
const FULL_ROWS = `SELECT ${SUMMARY_COLUMNS}, score_inputs, g.programs FROM facility f JOIN facility_inputs i ON i.registry_id = f.registry_id
  LEFT JOIN facility_programs g ON g.registry_id = f.registry_id`;
type RawSummary = Omit<RawRow, 'score_inputs' | 'programs'>;

// Rows come fresh from SQLite and are not shared, so the flag is converted in place (no copy per lookup).
function toSummary(r: RawSummary): FacilitySummary {
  const s = r as unknown as FacilitySummary;
  s.active_enforcement = (r.active_enforcement as number) === 1;
  return s;
}

function toRow({ programs, ...r }: RawRow, decode: (programs: StoredDetailRef | null) => ScoreInputs['programs'], inputsKeys: readonly string[] | null): FacilityRow {
  const inputs = inputsOfStored(r.score_inputs, inputsKeys);
  inputs.programs = decode(programs);
  return { ...r, active_enforcement: r.active_enforcement === 1, score_inputs: inputs };
}

/** Peers columns of peer_rank (schema.ts PEER_DDL), as read beside a facility; all null without a group. */
const PEER_COLUMNS = 'p.peer_naics, p.naics_digits, p.peer_count, p.percentile, p.median_score';
const PEER_JOIN = 'LEFT JOIN peer_rank p ON p.naics = f.fac_naics AND p.overall_score = f.overall_score';
type RawPeers = { peer_naics: string | null; naics_digits: number | null; peer_count: number | null; percentile: number | null; median_score: number | null };

function peersOf(r: RawPeers): Peers | null {
  if (r.peer_naics === null) return null;
  return peersOfGroup(r.peer_naics, r.naics_digits!, r.peer_count!, r.percentile!, r.median_score!);
}

/** index_meta `inputs_keys` (format 10), or null for an index that stores keyed inputs. */
function readInputsKeys(db: Database): readonly string[] | null {
  const row = db.query<{ value: string }, []>("SELECT value FROM index_meta WHERE key = 'inputs_keys'").get();
  return row ? (JSON.parse(row.value) as string[]) : null;
}

const hasTable = (db: Database, name: string) => db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== null;

/**
 * Where the programs are: format 7 keeps them in facility.detail (read as the `programs` column of
 * a one-row subquery), formats 5-6 in facility_programs; formats 2-4 (before issue 14) have neither,
 * nor peer_rank: those read as empty tables, so an older index still serves (programs all null,
 * peers null) until it is rebuilt.
 */
function issue14Tables(db: Database, stored: StoredLookup | null): { sql: (sql: string) => string; decode: (programs: StoredDetailRef | null) => ScoreInputs['programs'] } {
  if (stored) {
    return {
      sql: (sql) => sql.replace(/\bfacility_programs\b/g, '(SELECT registry_id, detail AS programs FROM facility)'),
      decode: (detail) => (detail === null ? decodePrograms(null) : stored.programsOf(detail)),
    };
  }
  const decode = (programs: StoredDetailRef | null) => decodePrograms(programs as string | null); // formats 5-6: text or none
  if (hasTable(db, 'peer_rank')) return { sql: (sql) => sql, decode };
  return {
    sql: (sql) =>
      sql
        .replace(/\bfacility_programs\b/g, '(SELECT NULL AS registry_id, NULL AS programs WHERE 0)')
        .replace(/\bpeer_rank\b/g, '(SELECT NULL AS naics, NULL AS overall_score, NULL AS peer_naics, NULL AS naics_digits, NULL AS peer_count, NULL AS percentile, NULL AS median_score WHERE 0)'),
    decode,
  };
}

/** A full row with its industry peers (null: no NAICS code). */
export type FacilityDetail = FacilityRow & { peers: Peers | null };
/** A portfolio item: the brief plus peers. */
export type BriefWithPeers = FacilityBrief & { peers: Peers | null };

/** Thrown when an index file is missing, unreadable or of another format; main.ts prints it as one line. */
export class IndexOpenError extends Error {}

/** The read-only facility index. Statements are prepared once; every method takes plain values. */
export class FacilityIndex {
  readonly info: IndexInfo;
  /** Format 10: the keys of the stored inputs' values (./inputs-codec.ts); null before, when the inputs are keyed objects. */
  readonly inputsKeys: readonly string[] | null;
  /** Where the search tables are, in words, for the start and reload log lines (./search-file.ts). */
  readonly searchTables: string;
  private readonly byId;
  private readonly summaryById;
  private readonly byAddressKey;
  private readonly briefsByIds;
  private readonly inputsById;
  private readonly programsById;
  private readonly peersOfScore;
  private readonly briefsWithPeers;
  private readonly locationsByIds;
  private readonly history: HistoryReader;
  private readonly decodeProgramsOf: (programs: StoredDetailRef | null) => ScoreInputs['programs'];
  /**
   * Format 7: the stored programs, explanation and peers of a Starter+ lookup (./stored-lookup.ts).
   * Null for formats 2-6, which have none: their lookups explain per request.
   */
  readonly stored: StoredLookup | null;
  /**
   * The content of the release's area file (`<index>.area`) when the index is not a file it can lie
   * beside: the binary's embedded sample (./bundled.ts). Null otherwise: serve looks beside the file.
   */
  areaFile: Uint8Array | null = null;

  /** `searchTables`: where open() found them (an attached search file); by default the index's own. */
  constructor(
    readonly db: Database,
    searchTables?: string,
  ) {
    try {
      const format = db.query("SELECT value FROM index_meta WHERE key = 'format'").get() as { value: string } | null;
      if (!READABLE_FORMATS.includes(format?.value ?? '')) throw new IndexOpenError(`index format ${format?.value ?? 'unknown'}, expected ${INDEX_FORMAT}`);
      const info = db.query("SELECT value FROM index_meta WHERE key = 'info'").get() as { value: string } | null;
      if (!info) throw new IndexOpenError('index has no metadata');
      this.info = JSON.parse(info.value) as IndexInfo;
      this.inputsKeys = readInputsKeys(db);
      this.searchTables = searchTables ?? ownSearchTables(db);
      this.history = new HistoryReader(db, this.info);
    } catch (e) {
      if (e instanceof IndexOpenError) throw e;
      throw new IndexOpenError(`not a facility index (${(e as Error).message})`);
    }
    // formats 7 and up: facility rows carry their detail, with its templates in reason_template and
    // (format 10) its shared program records in program_record (schema.ts)
    this.stored = hasTable(db, 'reason_template') ? new StoredLookup(db, SUMMARY_COLUMNS) : null;
    const { sql, decode } = issue14Tables(db, this.stored);
    this.decodeProgramsOf = decode;
    this.byId = db.prepare<RawRow, [string]>(sql(`${FULL_ROWS} WHERE f.registry_id = ?`));
    this.summaryById = db.prepare<RawSummary, [string]>(`SELECT ${SUMMARY_COLUMNS} FROM facility f WHERE f.registry_id = ?`);
    // The IDs go in as one JSON array through json_each, never spliced into SQL.
    this.briefsByIds = db.prepare<Omit<FacilityBrief, 'active_enforcement'> & { active_enforcement: number }, [string]>(
      'SELECT registry_id, fac_name, overall_score, active_enforcement FROM facility WHERE registry_id IN (SELECT value FROM json_each(?))',
    );
    // separate keyed reads: on the sample, one 4-table join took 36 us where these take ~14 us together
    this.inputsById = db.prepare<{ score_inputs: string }, [string]>('SELECT score_inputs FROM facility_inputs WHERE registry_id = ?');
    this.programsById = db.prepare<{ programs: StoredDetailRef }, [string]>(sql('SELECT programs FROM facility_programs g WHERE g.registry_id = ?'));
    this.peersOfScore = db.prepare<RawPeers, [string, number]>(sql(`SELECT ${PEER_COLUMNS} FROM peer_rank p WHERE p.naics = ? AND p.overall_score = ?`));
    this.briefsWithPeers = db.prepare<{ registry_id: string; fac_name: string; overall_score: number; active_enforcement: number; lat: number; lng: number } & RawPeers, [string]>(
      sql(`SELECT f.registry_id, fac_name, f.overall_score, active_enforcement, lat, lng, ${PEER_COLUMNS} FROM facility f ${PEER_JOIN} WHERE f.registry_id IN (SELECT value FROM json_each(?))`),
    );
    this.locationsByIds = db.prepare<{ registry_id: string; lat: number; lng: number }, [string]>(
      'SELECT registry_id, lat, lng FROM facility WHERE registry_id IN (SELECT value FROM json_each(?))',
    );
    this.byAddressKey = db.prepare<RawSummary, [string]>(
      `SELECT ${SUMMARY_COLUMNS} FROM facility_address a JOIN facility f ON f.registry_id = a.registry_id WHERE a.address_key = ? ORDER BY f.registry_id`,
    );
  }

  /** Opens an index file read-only; fails now (not at the first request) if it is missing or corrupt. */
  static open(path: string): FacilityIndex {
    if (!existsSync(path)) throw new IndexOpenError(`index file not found: ${path}`);
    let db: Database;
    let search: ReturnType<typeof attachSearchFile>;
    try {
      db = new Database(path, { readonly: true, strict: true });
      // A national index's search tables are in a file beside it (./search-file.ts), attached first
      // so the settings below hold for both files.
      search = attachSearchFile(db, path);
      // The file never changes under us (ingest writes a new file and renames it), so hold the
      // shared lock for good: without it every lookup pays lock/unlock syscalls (~10 µs of ~14).
      db.exec('PRAGMA query_only = ON; PRAGMA mmap_size = 4294967296; PRAGMA locking_mode = EXCLUSIVE;');
      if (search.attached) db.exec(`PRAGMA ${SEARCH_SCHEMA}.mmap_size = 4294967296;`);
    } catch (e) {
      throw new IndexOpenError(`cannot open index ${path}: ${(e as Error).message}`);
    }
    return new FacilityIndex(db, search.note);
  }

  get(registryId: string): FacilityRow | null {
    const r = this.byId.get(registryId);
    return r ? toRow(r, this.decodeProgramsOf, this.inputsKeys) : null;
  }

  /** The row without its score inputs: what a lookup returns, without parsing JSON it will not use. */
  getSummary(registryId: string): FacilitySummary | null {
    const r = this.summaryById.get(registryId);
    return r ? toSummary(r) : null;
  }

  /** The briefs of those `ids` that are in the index, keyed by ID, read in one statement; unknown IDs are absent. */
  getBriefs(ids: readonly string[]): Map<string, FacilityBrief> {
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

  /** The full row (score inputs parsed) with its industry peers: what a Starter+ lookup shows. */
  getDetail(registryId: string): FacilityDetail | null {
    const summary = this.getSummary(registryId);
    if (!summary) return null;
    const inputs = inputsOfStored(this.inputsById.get(registryId)!.score_inputs, this.inputsKeys);
    inputs.programs = this.decodeProgramsOf(this.programsById.get(registryId)?.programs ?? null);
    const peers = this.peersOfScore.get(summary.fac_naics, summary.overall_score);
    return Object.assign(summary, { score_inputs: inputs, peers: peers ? peersOf(peers) : null });
  }

  /**
   * getBriefs plus each facility's industry peers (portfolio items). `locations`, when given,
   * receives their locations from the same read (the export forms).
   */
  getBriefsWithPeers(ids: readonly string[], locations?: Map<string, { lat: number; lng: number }>): Map<string, BriefWithPeers> {
    const out = new Map<string, BriefWithPeers>();
    if (ids.length === 0) return out;
    for (const r of this.briefsWithPeers.all(JSON.stringify(ids))) {
      locations?.set(r.registry_id, { lat: r.lat, lng: r.lng });
      out.set(r.registry_id, { registry_id: r.registry_id, fac_name: r.fac_name, overall_score: r.overall_score, active_enforcement: r.active_enforcement === 1, peers: peersOf(r) });
    }
    return out;
  }

  /** The WGS84 locations of those `ids` that are in the index, keyed by ID (the export forms' coordinates). */
  getLocations(ids: readonly string[]): Map<string, { lat: number; lng: number }> {
    const out = new Map<string, { lat: number; lng: number }>();
    if (ids.length === 0) return out;
    for (const r of this.locationsByIds.all(JSON.stringify(ids))) out.set(r.registry_id, { lat: r.lat, lng: r.lng });
    return out;
  }

  /** Facilities filed under a normalised address key (src/demo/address.ts), lowest registry ID first. */
  findByAddressKey(key: string): FacilitySummary[] {
    return this.byAddressKey.all(key).map(toSummary);
  }

  /** Every release this index carries, oldest first; the last is its own data (GET /api/v1/status). */
  releases(): readonly Release[] {
    return this.history.releases();
  }

  /** The facility's history entries, newest first; empty when it was never in any release. */
  historyOf(registryId: string): HistoryEntry[] {
    return this.history.historyOf(registryId, this.getSummary(registryId));
  }

  /** The facility's `score_change` (src/history/score-change.ts). */
  scoreChangeOf(registryId: string): ScoreChange {
    return scoreChangeOf(this.history.storedEntries(registryId), this.info.score_version);
  }

  /** `score_change` of many facilities in one statement; IDs not in the map have none (null). */
  scoreChangesOf(ids: readonly string[]): Map<string, ScoreChange> {
    const out = new Map<string, ScoreChange>();
    for (const [id, entries] of this.history.storedEntriesOf(ids)) out.set(id, scoreChangeOf(entries, this.info.score_version));
    return out;
  }

  close(): void {
    this.db.close();
  }
}
