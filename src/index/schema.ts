import { HISTORY_DDL } from './history/schema';

/** DDL of the facility index file (the search tables: ./search-table.ts). Bump INDEX_FORMAT when it changes; readers refuse formats not in READABLE_FORMATS. */
export const INDEX_FORMAT = '10';
/**
 * Format 2 is format 3 without the release and history tables: it reads as one release (src/history/).
 * Format 3 is format 4 without the search tables: it serves everything but search (503, src/search/).
 * Format 4 is format 5 without facility_programs and peer_rank (issue 14): it reads with programs
 * and peers null (facility-index.ts).
 * Formats 4 and 5 have the first search layout (docids in registry-ID order, no prefix index),
 * which format 6's score order cannot walk: they serve everything but search (503, src/search/).
 * Formats 5 and 6 keep the programs in facility_programs and have no facility.detail: a lookup
 * explains them per request (facility-index.ts, src/facilities/service.ts), as before format 7.
 * Formats 6 and 7 are format 8 with the second search layout (four FTS5 columns with positions,
 * issue 16): search reads them like format 8 (only matches and docids are used).
 * Formats 6 to 8 number search docids 1..N; format 9 numbers them score * 2^32 + rank within the
 * score (./search-docids.ts), so ingest can build the search tables while it loads. Readers map both
 * to the same places in the score order.
 * Formats 7 to 9 store every program record in facility.detail; format 10 stores a record without a
 * date or an amount once, in program_record, and the row its id (./program-codec.ts). A reader resolves
 * ids when the table is there (a format-9 detail has none).
 */
export const READABLE_FORMATS: readonly string[] = ['2', '3', '4', '5', '6', '7', '8', '9', INDEX_FORMAT];

/**
 * `facility` holds only what lookups, portfolios and area searches return, so its rows stay small
 * (about 200 bytes; format 7 added a lookup's stored detail, ~117 bytes on the sample, which format 10
 * brings to an integer id for 82% of rows and ~67 bytes for the rest): a national table of 3.2M rows is then ~0.55 GB instead of ~2 GB, and a random
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
  lat REAL NOT NULL,
  lng REAL NOT NULL,
  fac_naics TEXT NOT NULL,
  overall_score INTEGER NOT NULL,
  active_enforcement INTEGER NOT NULL,
  baseline INTEGER NOT NULL,
  violation_frequency INTEGER NOT NULL,
  penalty_severity INTEGER NOT NULL,
  recency INTEGER NOT NULL,
  repeat_offender INTEGER NOT NULL,
  score_hash TEXT NOT NULL,
  -- format 7: the programs and explanation a Starter+ lookup shows (./facility-detail.ts; ~117 bytes);
  -- format 10: the text, or the id (an integer) of a row of shared_detail: no type, so SQLite keeps either as given
  detail
) WITHOUT ROWID;
-- the score model's inputs (JSON), for reports that explain each component
CREATE TABLE facility_inputs (registry_id TEXT PRIMARY KEY NOT NULL, score_inputs TEXT NOT NULL) WITHOUT ROWID;
-- normalised street line + state (src/demo/address.ts), for the demo's offline geocoder
CREATE TABLE facility_address (address_key TEXT NOT NULL, registry_id TEXT NOT NULL, PRIMARY KEY (address_key, registry_id)) WITHOUT ROWID;
CREATE TABLE index_meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID;
${HISTORY_DDL}
`;

/**
 * Issue 14: industry peers, filled at the end of ingest (src/index/peers.ts): one row per primary
 * NAICS code and overall score present, so a lookup reads its peers with one key.
 * (Formats 5 and 6 also had `facility_programs (registry_id, programs)`: the programs now live in facility.detail.)
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
  -- format 7: the API's peers object as JSON text, so a lookup copies it instead of writing it
  peers TEXT NOT NULL,
  PRIMARY KEY (naics, overall_score)
) WITHOUT ROWID;
`;

/**
 * Format 7: what a Starter+ lookup shows beyond the slim row is computed at ingest, so a lookup reads
 * it with the row and explains nothing: `facility.detail` holds the programs (program-codec.ts) and the
 * explanation as sentence templates and their values (explanation-codec.ts, facility-detail.ts);
 * the templates are here, peer_rank.peers holds the peers as JSON.
 */
export const DETAIL_DDL = `
CREATE TABLE reason_template (id INTEGER PRIMARY KEY NOT NULL, pieces TEXT NOT NULL);
-- format 10: program records without a date or an amount, stored once (./program-codec.ts ProgramRecords)
CREATE TABLE program_record (id INTEGER PRIMARY KEY NOT NULL, record TEXT NOT NULL);
-- format 10: details many facilities share, stored once (./facility-detail.ts DetailEncoder); facility.detail holds the id
CREATE TABLE shared_detail (id INTEGER PRIMARY KEY NOT NULL, detail TEXT NOT NULL);
`;
