import { Database } from 'bun:sqlite';
import { renameSync, rmSync } from 'node:fs';
import { normalizeAddressKey } from '../address/address';
import { PREVIOUS_SCHEMA, recordRelease, type PreviousIndex, type RecordedRelease } from './history-tables/carry-forward';
import { insufficientReasons, type SourceFormat } from '../scoring/completeness';
import { explainFacts } from '../scoring/explain';
import { factsOf } from '../scoring/facts';
import type { ScoreInputs } from '../scoring/model';
import { BulkInsert } from './bulk-insert';
import { DetailEncoder, type DetailDictionary } from './facility-detail';
import type { IndexRow } from './index-row';
import type { FacilityRow, IndexInfo } from './model';
import { PeerTally, peersJson } from './peers';
import { STORED_INPUT_KEYS, storedInputsJson } from './inputs-codec';
import { EVIDENCE_KEYS, storedEvidenceJson, type Evidence } from './evidence';
import { siteFactBitsOf } from './site-facts';
import { DETAIL_DDL, INDEX_DDL, INDEX_FORMAT, PEER_DDL } from './schema';
import { DECLARED_COLUMNS, declaredColumnValue, type DeclaredValues } from './declared-columns';
import { fillSearchTables, SEARCH_DDL } from './search-tables/table';

/** Where a file is built before it is renamed into place: the temp name of process `pid` (default: this one) beside it. */
export function buildTempPath(finalPath: string, pid: number = process.pid): string {
  return `${finalPath}.tmp-${pid}`;
}

/** A row's values in the facility table's column order (./schema.ts); '' detail and evidence are stored as NULL. */
function facilityValues(r: IndexRow): (string | number | null)[] {
  const values = [
    r.registry_id, r.fac_name, r.fac_street, r.fac_city, r.fac_state, r.fac_zip, r.lat, r.lng, r.fac_naics, r.overall_score, r.active_enforcement,
    r.baseline, r.violation_frequency, r.penalty_severity, r.recency, r.repeat_offender, r.score_hash,
    r.detail === '' ? null : r.detail, r.completeness, r.site_facts, r.evidence_json || null,
  ];
  // appended in place (no array of them to spread): this runs for every row at ingest
  for (let k = 0; k < DECLARED_COLUMNS.length; k++) values.push(declaredColumnValue(r, DECLARED_COLUMNS[k]!));
  return values;
}

/** The facility table's columns: the 21 every row has (facilityValues), then the declared ones. */
const FACILITY_COLUMNS = 21 + DECLARED_COLUMNS.length;

/**
 * Builds an index file atomically: rows go into `<path>.tmp-<pid>`, which is renamed over `path`
 * only by `finish()`. An interrupted build leaves the old index untouched.
 */
export class IndexWriter {
  private readonly db: Database;
  private readonly tmpPath: string;
  private readonly insert;
  private readonly insertInputs;
  private readonly insertAddress;
  private readonly setDetail;
  private readonly insertTemplate;
  private readonly insertRecord;
  private readonly insertDetail;
  private readonly insertCompleteness;
  private readonly bulk;
  /** Rows added with add() (tests): their facility.detail is written by finish(), once the as-of date is known. */
  private readonly unexplained: { id: string; inputs: ScoreInputs; evidence: Evidence | null; naics: string; score: number }[] = [];
  /** completeness_kind ids whose data is not enough to judge (data_completeness.sufficient false): their facilities are nobody's peers. */
  private readonly insufficientKinds = new Set<number>();
  /** The templates and shared records of those rows' details (ingest's rows come with theirs: addDictionary). */
  private readonly details = new DetailEncoder();
  /** Facility rows inserted (duplicates not counted): the index's facility_count. */
  private count = 0;
  /** Of those, rows without coordinates (facilities_without_location). */
  private unplaced = 0;
  /** Scores by NAICS code, ranked into peer_rank by finish(). */
  private readonly peers = new PeerTally();
  /** Set by complete() once the file is closed (an abort after it only removes the file). */
  private closed = false;
  /** Set by describe(): the data's as-of date, which the explanations of add()'s rows need. */
  private asOf = '';
  /** Rows added with add() carried evidence: every key then counts as reported (ingest sets evidence_reported itself). */
  private evidenceGiven = false;
  /** Set by finish(): the release this build wrote. */
  release: RecordedRelease | null = null;

  /** `previous`: the index this one follows (ingest --previous); its releases and history are carried forward. */
  constructor(private readonly path: string, private readonly previous: PreviousIndex | null = null) {
    this.tmpPath = path === ':memory:' ? path : buildTempPath(path);
    if (this.tmpPath !== ':memory:') rmSync(this.tmpPath, { force: true });
    this.db = new Database(this.tmpPath, { create: true, strict: true });
    // Bulk-load settings: the file is not live until renamed, so durability per row is moot.
    // (bun:sqlite runs SQLite in defensive mode, which keeps journal_mode at DELETE: the journal then
    // holds only the pages the file had before the build's one transaction, i.e. almost nothing.)
    // A 128 MiB page cache: the rows go in in key order, so the cache mostly holds pages waiting to
    // be written; a larger one cost peak RSS and bought no speed (docs/benchmarks.md, Ingest).
    this.db.exec('PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -131072;');
    this.db.exec(INDEX_DDL);
    this.db.exec(PEER_DDL);
    this.db.exec(DETAIL_DDL);
    // attached before the transaction (SQLite refuses ATTACH inside one); only read, and detached before ANALYZE
    if (previous) {
      this.db.prepare(`ATTACH DATABASE ? AS ${PREVIOUS_SCHEMA}`).run(previous.path);
      this.db.exec(`PRAGMA ${PREVIOUS_SCHEMA}.cache_size = -131072;`);
    }
    this.db.exec('BEGIN');
    this.insert = this.db.prepare(
      `INSERT INTO facility VALUES (${Array.from({ length: FACILITY_COLUMNS }, (_, i) => `?${i + 1}`).join(',')}) ON CONFLICT(registry_id) DO NOTHING`,
    );
    this.insertInputs = this.db.prepare('INSERT INTO facility_inputs VALUES (?1, ?2)');
    this.insertAddress = this.db.prepare('INSERT OR IGNORE INTO facility_address VALUES (?1, ?2)');
    this.setDetail = this.db.prepare('UPDATE facility SET detail = ?2, completeness = ?3, site_facts = ?4 WHERE registry_id = ?1');
    this.insertTemplate = this.db.prepare('INSERT INTO reason_template VALUES (?1, ?2)');
    this.insertRecord = this.db.prepare('INSERT INTO program_record VALUES (?1, ?2)');
    this.insertDetail = this.db.prepare('INSERT INTO shared_detail VALUES (?1, ?2)');
    this.insertCompleteness = this.db.prepare('INSERT INTO completeness_kind VALUES (?1, ?2)');
    this.bulk = {
      facility: new BulkInsert(this.db, 'INSERT', 'facility', FACILITY_COLUMNS),
      inputs: new BulkInsert(this.db, 'INSERT', 'facility_inputs', 2),
      address: new BulkInsert(this.db, 'INSERT OR IGNORE', 'facility_address', 2),
    };
  }

  /**
   * Adds a row; a registry ID already written keeps its first row. Tests use this: the stored points
   * are the row's, the explanation is derived from its inputs at finish() (the as-of date is known then).
   */
  add(row: FacilityRow): void {
    const added = this.addIfNew({
      registry_id: row.registry_id, fac_name: row.fac_name, fac_street: row.fac_street, fac_city: row.fac_city, fac_state: row.fac_state, fac_zip: row.fac_zip,
      lat: row.lat, lng: row.lng, ...declaredColumnsOf(row), fac_naics: row.fac_naics, overall_score: row.overall_score, active_enforcement: row.active_enforcement ? 1 : 0,
      baseline: row.baseline, violation_frequency: row.violation_frequency, penalty_severity: row.penalty_severity, recency: row.recency,
      repeat_offender: row.repeat_offender, score_hash: row.score_hash, score_inputs_json: storedInputsJson(row.score_inputs),
      detail: '', evidence_json: row.evidence ? storedEvidenceJson(row.evidence) : '', completeness: 0, site_facts: 0,
    });
    if (added) this.unexplained.push({ id: row.registry_id, inputs: row.score_inputs, evidence: row.evidence ?? null, naics: row.fac_naics, score: row.overall_score });
    if (row.evidence) this.evidenceGiven = true;
  }

  /** One row for add(): false when its registry ID is already written. */
  private addIfNew(r: IndexRow): boolean {
    if (this.insert.run(...facilityValues(r)).changes !== 1) return false;
    this.insertInputs.run(r.registry_id, r.score_inputs_json);
    this.insertAddress.run(normalizeAddressKey(r.fac_street, r.fac_state), r.registry_id);
    // peers: explainAdded(), once the row's data completeness is known
    this.counted(r, false);
    return true;
  }

  /**
   * The ingest's fast path for a batch: rows with their templates and records given first through
   * addDictionary, written 64 rows a statement (./bulk-insert.ts). The producer rejects duplicate
   * registry IDs with their source line; one reaching here is a bug, and an error.
   */
  addRows(rows: readonly IndexRow[]): void {
    const { facility, inputs, address } = this.bulk;
    try {
      for (const r of rows) {
        facility.addRow(facilityValues(r));
        inputs.add(r.registry_id, r.score_inputs_json);
        address.add(normalizeAddressKey(r.fac_street, r.fac_state), r.registry_id);
        this.counted(r);
      }
      facility.flush();
      inputs.flush();
      address.flush();
    } catch (e) {
      if (e instanceof Error && e.message.includes('UNIQUE constraint failed: facility')) {
        throw new Error("a registry ID reached the index twice: the producer's duplicate check missed it");
      }
      throw e;
    }
  }

  private counted(r: IndexRow, peer = !this.insufficientKinds.has(r.completeness)): void {
    this.count++;
    if (r.lat === null) this.unplaced++;
    if (peer) this.peers.add(r.fac_naics, r.overall_score);
  }

  /** Explanation templates, shared program records and completeness values first used by the rows that follow (ingest's producer assigns their ids). */
  addDictionary(d: DetailDictionary): void {
    for (const r of d.templates) this.insertTemplate.run(...r);
    for (const r of d.records) this.insertRecord.run(...r);
    for (const r of d.details) this.insertDetail.run(...r);
    for (const r of d.completeness) {
      this.insertCompleteness.run(...r);
      if ((JSON.parse(r[1]) as { sufficient?: boolean }).sufficient === false) this.insufficientKinds.add(r[0]);
    }
  }

  /** Extra index_meta entries (e.g. ingest_version) written with the build. */
  setMeta(key: string, value: string): void {
    this.db.prepare('INSERT OR REPLACE INTO index_meta VALUES (?, ?)').run(key, value);
  }

  /** Facility rows written so far. */
  get facilityCount(): number {
    return this.count;
  }

  /** Writes metadata, the release list and history (./history/carry-forward.ts), and atomically replaces `path`. */
  finish(info: Omit<IndexInfo, 'facility_count' | 'facilities_without_location'>): IndexInfo {
    const full = this.seal(info);
    this.commit();
    return full;
  }

  /**
   * All of finish() but the rename: the file is complete and closed under its temp name, so what
   * a release carries beside it can be written before the two are put in place (ingest's companions).
   */
  seal(info: Omit<IndexInfo, 'facility_count' | 'facilities_without_location'>): IndexInfo {
    const full = this.describe(info);
    this.complete();
    return full;
  }

  /**
   * The first half of seal(): records the release (./history/carry-forward.ts) and the metadata, and returns the
   * index's final IndexInfo, which the files beside it are tied to: ingest starts laying out the area
   * index in its own process now, while complete() runs.
   */
  describe(info: Omit<IndexInfo, 'facility_count' | 'facilities_without_location'>): IndexInfo {
    const full: IndexInfo = { ...info, facility_count: this.count, facilities_without_location: this.unplaced };
    this.release = recordRelease(this.db, { as_of: full.as_of, score_version: full.score_version, dataset_name: full.dataset_name, facility_count: full.facility_count }, this.previous, STORED_INPUT_KEYS);
    // The previous index is read by recordRelease only. Its page cache (up to 128 MiB, full after the
    // diff's scan) is handed back now, before the search fill's sort takes up to the main cache's size:
    // otherwise both sit on top of the load's heap and `ingest --previous` peaked well above a plain one.
    if (this.previous) this.db.exec(`PRAGMA ${PREVIOUS_SCHEMA}.cache_size = -2048; PRAGMA shrink_memory;`);
    const put = this.db.prepare('INSERT OR REPLACE INTO index_meta VALUES (?, ?)');
    put.run('format', INDEX_FORMAT);
    put.run('inputs_keys', JSON.stringify(STORED_INPUT_KEYS));
    put.run('info', JSON.stringify(full));
    // ingest names the keys its sources had before this runs (setMeta); add()'s rows report all or none
    this.db.prepare('INSERT OR IGNORE INTO index_meta VALUES (?, ?)').run('evidence_reported', JSON.stringify(this.evidenceGiven ? EVIDENCE_KEYS : []));
    this.asOf = full.as_of;
    return full;
  }

  /**
   * The second half of seal(): peers, the search tables, statistics; closes the file. `search`:
   * 'elsewhere' when ingest built them in a file of their own beside the index (./search/file.ts),
   * so this file has none.
   */
  complete(search: 'fill' | 'elsewhere' = 'fill'): void {
    this.explainAdded();
    this.writePeers();
    if (search === 'fill') {
      this.db.exec(SEARCH_DDL);
      fillSearchTables(this.db);
    }
    this.db.exec('COMMIT');
    if (this.previous) this.db.exec(`DETACH DATABASE ${PREVIOUS_SCHEMA}`);
    this.db.exec('ANALYZE main; PRAGMA journal_mode = DELETE;');
    if (this.tmpPath !== ':memory:') {
      this.db.close();
      this.closed = true;
    }
  }

  /** Puts the sealed file in place (atomically replacing `path`). */
  commit(): void {
    if (this.tmpPath !== ':memory:') renameSync(this.tmpPath, this.path);
  }

  /** add()'s rows: their explanation, data completeness and site facts, from the facts of their inputs at the as-of date. */
  private explainAdded(): void {
    const asOf = this.asOf;
    for (const { id, inputs, evidence, naics, score } of this.unexplained) {
      const facts = factsOf(inputs, asOf);
      const completeness = this.details.completeness(facts, sourceFormatOf(inputs.not_reported));
      if (insufficientReasons(facts).length === 0) this.peers.add(naics, score);
      this.setDetail.run(id, this.details.encode(inputs.programs, explainFacts(facts)), completeness, siteFactBitsOf(facts, inputs.programs, evidence));
    }
    this.addDictionary(this.details.drain());
  }

  private writePeers(): void {
    const insert = this.db.prepare('INSERT INTO peer_rank VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)');
    for (const row of this.peers.rows()) insert.run(row[0], row[1], row[2], row[3], row[4], row[5], row[6], peersJson(row));
  }

  /** Abandons the build; the previous index (if any) stays in place. */
  abort(): void {
    try {
      // Rolled back before closing: bun:sqlite's defensive mode refuses journal_mode=OFF, so the
      // build has a rollback journal, which a close with statements still prepared would leave behind.
      if (!this.closed && this.db.inTransaction) this.db.exec('ROLLBACK');
      this.db.close();
    } finally {
      if (this.tmpPath !== ':memory:') rmSync(this.tmpPath, { force: true });
    }
  }

  /** For tests building an in-memory index: the live database once finished. */
  get database(): Database {
    return this.db;
  }
}

/**
 * The ECHO layout of an add()ed row, which names none (ingest knows each file's): the facility-search
 * download has no FAC_ACTIVE_FLAG, every exporter layout has it.
 */
function sourceFormatOf(notReported: readonly string[] | null | undefined): SourceFormat {
  return notReported?.includes('facility_active') ? 'echo-facility-search' : 'echo-exporter';
}

/** The declared fields a test row gives that are kept in columns (the others derive from its evidence when read). */
function declaredColumnsOf(row: FacilityRow): Partial<DeclaredValues> {
  const out: Partial<Record<string, unknown>> = {};
  const given = row as Partial<Record<string, unknown>>;
  for (const k of DECLARED_COLUMNS) if (given[k] !== undefined) out[k] = given[k];
  return out as Partial<DeclaredValues>;
}
