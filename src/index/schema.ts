/** DDL of the facility index file. Bump INDEX_FORMAT when it changes; readers refuse other formats. */
export const INDEX_FORMAT = '1';

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
  score_inputs TEXT NOT NULL,
  -- normalised street line + state, for the demo's offline geocoder (src/demo/address.ts)
  address_key TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE index_meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID;
`;

/** Secondary indexes are created after the bulk load: faster than maintaining them row by row. */
export const INDEX_POST_LOAD_DDL = `
CREATE INDEX facility_address_key ON facility(address_key);
`;
