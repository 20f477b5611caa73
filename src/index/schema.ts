import { DECLARED_COLUMNS_DDL } from './declared-columns';
import { HISTORY_DDL } from './history-tables/schema';

/**
 * Index format 13, the only one a server reads (an index of another number is refused at open:
 * formatRefusal). A file holds `facility` (one slim row per facility: identity, location (NULL for
 * a facility without usable coordinates: served by ID and search, never placed), score components, and `detail`, what a Starter+ lookup shows beyond the row: its programs and the
 * explanation as sentence-template ids and values, or the integer id of a `shared_detail` row many
 * facilities share; ./facility-detail.ts; `completeness`, the id of its data completeness in
 * `completeness_kind`; `evidence`, the ECHO fields shown beside the score, NULL when there is nothing
 * to store: ./evidence.ts, index_meta `evidence_reported` names the keys the sources had), `reason_template` and `program_record` (templates and
 * program records stored once), `facility_inputs` (the score model's inputs as a value array in the
 * order `index_meta.inputs_keys` names: ./inputs-codec.ts), `facility_address` (the demo geocoder's
 * keys), `peer_rank`
 * (industry peers by NAICS code and score, with the API's JSON), the release and history tables
 * (./history/schema.ts), the search tables (./search/table.ts; in `<index>.search` for a national
 * build, search docids `score * 2^32 + rank`: ./search/docids.ts) and `index_meta` (format,
 * info, inputs_keys). Bump INDEX_FORMAT when any of this changes, and retarget ./previous-format.ts.
 */
export const INDEX_FORMAT = '13';

/**
 * The one sentence a server says about an index of another format, or null for the current one.
 * Only the number is compared: what an older file lacks is never guessed at, the file is rebuilt.
 */
export function formatRefusal(found: string): string | null {
  if (found === INDEX_FORMAT) return null;
  const n = Number(found);
  const which = `format ${found}; this version reads format ${INDEX_FORMAT}`;
  if (Number.isInteger(n) && n > Number(INDEX_FORMAT)) return `the index was built by a newer version: serve it with that version or a later one (${which})`;
  return `the index was built by an older version: rebuild it with \`ingest\` (${which})`;
}

/**
 * `facility` holds only what lookups, portfolios and area searches return, so its rows stay small
 * (a lookup's stored detail is an integer id for most rows and a short text for the rest): a
 * national table is a fraction of what it was with everything in it, and a random
 * lookup or a 500-ID portfolio touches far fewer pages. What only reports and the demo need lives
 * beside it, keyed the same way.
 */
export const INDEX_DDL = `
CREATE TABLE facility (
  registry_id TEXT PRIMARY KEY NOT NULL,
  fac_name TEXT NOT NULL,
  fac_street TEXT NOT NULL,
  fac_city TEXT NOT NULL,
  fac_state TEXT NOT NULL,
  fac_zip TEXT NOT NULL,
  -- NULL for a facility without usable coordinates (never in the area search)
  lat REAL,
  lng REAL,
  fac_naics TEXT NOT NULL,
  overall_score INTEGER NOT NULL,
  active_enforcement INTEGER NOT NULL,
  baseline INTEGER NOT NULL,
  violation_frequency INTEGER NOT NULL,
  penalty_severity INTEGER NOT NULL,
  recency INTEGER NOT NULL,
  repeat_offender INTEGER NOT NULL,
  score_hash TEXT NOT NULL,
  -- the programs and explanation a Starter+ lookup shows (./facility-detail.ts): the text, or the id
  -- (an integer) of a row of shared_detail: no type, so SQLite keeps either as given
  detail,
  -- what the score's data lacks: the id of a completeness_kind row (few distinct values, loaded at open)
  completeness INTEGER NOT NULL,
  -- what a site report's record categories read and whether the data is enough to judge (./site-facts.ts siteFactBitsOf), as of the index's date
  site_facts INTEGER NOT NULL,
  -- the ECHO fields shown beside the score (./evidence.ts storedEvidenceJson), NULL when there is
  -- nothing to store; in the row, so a Starter+ lookup reads it with everything else; then the
  -- declared fields kept in columns of their own (./declared-columns.ts), NULL when not stated
  evidence TEXT${DECLARED_COLUMNS_DDL}
) WITHOUT ROWID;
-- facilities without coordinates by ZIP5 (a site report's unmapped list looks in dozens of ZIPs): a
-- few rows in a thousand, so a small index
CREATE INDEX facility_unplaced_zip ON facility (substr(fac_zip, 1, 5)) WHERE lat IS NULL;
-- the score model's inputs (JSON), for reports that explain each component
CREATE TABLE facility_inputs (registry_id TEXT PRIMARY KEY NOT NULL, score_inputs TEXT NOT NULL) WITHOUT ROWID;
-- normalised street line + state (src/demo/address.ts), for the demo's offline geocoder
CREATE TABLE facility_address (address_key TEXT NOT NULL, registry_id TEXT NOT NULL, PRIMARY KEY (address_key, registry_id)) WITHOUT ROWID;
CREATE TABLE index_meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID;
${HISTORY_DDL}
`;

/**
 * Industry peers, filled at the end of ingest (src/index/peers.ts): one row per primary NAICS code and
 * overall score present, so a lookup reads its peers with one key.
 */
export const PEER_DDL = `
CREATE TABLE peer_rank (
  naics TEXT NOT NULL,
  overall_score INTEGER NOT NULL,
  peer_naics TEXT NOT NULL,
  naics_digits INTEGER NOT NULL,
  peer_count INTEGER NOT NULL,
  percentile INTEGER NOT NULL,
  median_score INTEGER NOT NULL,
  -- the API's peers object as JSON text, so a lookup copies it instead of writing it
  peers TEXT NOT NULL,
  PRIMARY KEY (naics, overall_score)
) WITHOUT ROWID;
`;

/**
 * What a Starter+ lookup shows beyond the slim row is computed at ingest, so a lookup reads
 * it with the row and explains nothing: `facility.detail` holds the programs (program-codec.ts) and the
 * explanation as sentence templates and their values (explanation-codec.ts, facility-detail.ts);
 * the templates are here, peer_rank.peers holds the peers as JSON.
 */
export const DETAIL_DDL = `
CREATE TABLE reason_template (id INTEGER PRIMARY KEY NOT NULL, pieces TEXT NOT NULL);
-- program records without a date or an amount, stored once (./program-codec.ts ProgramRecords)
CREATE TABLE program_record (id INTEGER PRIMARY KEY NOT NULL, record TEXT NOT NULL);
-- details many facilities share, stored once (./facility-detail.ts DetailEncoder); facility.detail holds the id
CREATE TABLE shared_detail (id INTEGER PRIMARY KEY NOT NULL, detail TEXT NOT NULL);
-- every distinct data_completeness (src/scoring/completeness.ts) as JSON; facility.completeness holds the id
CREATE TABLE completeness_kind (id INTEGER PRIMARY KEY NOT NULL, completeness TEXT NOT NULL);
`;
