import { HISTORY_DDL } from '../history/schema';

/** DDL of the facility index file (the search tables: ./search-table.ts). Bump INDEX_FORMAT when it changes; readers refuse formats not in READABLE_FORMATS. */
export const INDEX_FORMAT = '7';
/**
 * Format 2 is format 3 without the release and history tables: it reads as one release (src/history/).
 * Format 3 is format 4 without the search tables: it serves everything but search (503, src/search/).
 * Format 4 is format 5 without facility_programs and peer_rank (issue 14): it reads with programs
 * and peers null (facility-index.ts).
 * Formats 4 and 5 have the first search layout (docids in registry-ID order, no prefix index),
 * which format 6's score order cannot walk: they serve everything but search (503, src/search/).
 * Format 6 is format 7 with the second search layout (four FTS5 columns with positions, issue 16):
 * search reads it like format 7 (only matches and docids are used).
 */
export const READABLE_FORMATS: readonly string[] = ['2', '3', '4', '5', '6', INDEX_FORMAT];

/**
 * `facility` holds only what lookups, portfolios and area searches return, so its rows stay small
 * (about 200 bytes): a national table of 3.2M rows is then ~0.55 GB instead of ~2 GB, and a random
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
  score_hash TEXT NOT NULL
) WITHOUT ROWID;
-- the score model's inputs (JSON), for reports that explain each component
CREATE TABLE facility_inputs (registry_id TEXT PRIMARY KEY NOT NULL, score_inputs TEXT NOT NULL) WITHOUT ROWID;
-- normalised street line + state (src/demo/address.ts), for the demo's offline geocoder
CREATE TABLE facility_address (address_key TEXT NOT NULL, registry_id TEXT NOT NULL, PRIMARY KEY (address_key, registry_id)) WITHOUT ROWID;
CREATE TABLE index_meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID;
${HISTORY_DDL}
`;

/**
 * Issue 14 (format 5): per-program records beside facility_inputs (whose JSON then has no `programs`),
 * and industry peers, filled at the end of ingest (src/index/peers.ts): one row per
 * primary NAICS code and overall score present, so a lookup reads its peers with one key.
 */
export const PEER_DDL = `
-- each program's own record (src/index/program-codec.ts), only for facilities in at least one program
CREATE TABLE facility_programs (registry_id TEXT PRIMARY KEY NOT NULL, programs TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE peer_rank (
  naics TEXT NOT NULL,
  overall_score INTEGER NOT NULL,
  peer_naics TEXT NOT NULL,
  naics_digits INTEGER NOT NULL,
  peer_count INTEGER NOT NULL,
  percentile INTEGER NOT NULL,
  median_score INTEGER NOT NULL,
  PRIMARY KEY (naics, overall_score)
) WITHOUT ROWID;
`;
