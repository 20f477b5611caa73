import { Database } from 'bun:sqlite';
import { MIXED_STATES, type SpatialIndex } from './spatial-index';

/**
 * The spatial index as a SQLite table `area_index(name, value)`: one BLOB per typed array plus a
 * JSON `meta` row. Building takes seconds on the national index (one H3 call per facility);
 * reading the stored arrays back takes a fraction of a second. The table lives in a sidecar file
 * beside the index (`<index>.area`, written at the first start; src/area/spatial-registry.ts).
 */
const FORMAT = 'area-index/1';

const ARRAYS = [
  'lat', 'lng', 'cos', 'score', 'flags', 'state', 'rank', 'idNum', 'idLen',
  'cellStart', 'cellLat', 'cellLng', 'cellCos', 'cellRadius', 'cellMinScore', 'cellActive', 'cellState',
] as const satisfies readonly (keyof SpatialIndex)[];

type Meta = {
  format: string;
  /** What the arrays were built from (see `identityOf`); a mismatch means stale. */
  identity: string;
  res: number;
  count: number;
  cells: string[];
  states: string[];
  idOther: [number, string][];
};

/** Writes `s` into `db` (replacing any earlier copy), in one transaction. */
export function writeSpatialIndex(db: Database, s: SpatialIndex, identity: string): void {
  db.exec('CREATE TABLE IF NOT EXISTS area_index (name TEXT PRIMARY KEY NOT NULL, value BLOB NOT NULL) WITHOUT ROWID');
  const put = db.prepare('INSERT OR REPLACE INTO area_index (name, value) VALUES (?, ?)');
  const meta: Meta = { format: FORMAT, identity, res: s.res, count: s.count, cells: [...s.cellOf.keys()], states: s.states, idOther: [...s.idOther] };
  db.transaction(() => {
    put.run('meta', JSON.stringify(meta));
    for (const name of ARRAYS) {
      const a = s[name];
      put.run(name, new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
    }
  })();
}

/** The stored index, or null when `db` holds none, or one of another format, resolution or identity. */
export function readSpatialIndex(db: Database, res: number, identity: string): SpatialIndex | null {
  const started = performance.now();
  const table = db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'area_index'").get();
  if (!table) return null;
  const get = db.query<{ value: Uint8Array | string }, [string]>('SELECT value FROM area_index WHERE name = ?');
  const metaRow = get.get('meta');
  if (!metaRow || typeof metaRow.value !== 'string') return null;
  const meta = JSON.parse(metaRow.value) as Meta;
  if (meta.format !== FORMAT || meta.res !== res || meta.identity !== identity) return null;
  const arrays: Partial<Record<(typeof ARRAYS)[number], ArrayBufferView>> = {};
  for (const name of ARRAYS) {
    const row = get.get(name);
    if (!row || typeof row.value === 'string') return null;
    arrays[name] = view(name, row.value);
  }
  const s = {
    ...(arrays as Pick<SpatialIndex, (typeof ARRAYS)[number]>),
    res: meta.res,
    count: meta.count,
    states: meta.states,
    stateCode: new Map(meta.states.map((st, i) => [st, i])),
    idOther: new Map(meta.idOther),
    cellOf: new Map(meta.cells.map((c, i) => [c, i])),
    buildMs: 0,
    origin: 'stored' as const,
  } satisfies SpatialIndex;
  // A truncated or mismatched copy must never be searched: check every length against the counts.
  const cells = meta.cells.length;
  const expected = (n: (typeof ARRAYS)[number]) => (n === 'cellStart' ? cells + 1 : n.startsWith('cell') ? cells : meta.count);
  const ok = ARRAYS.every((n) => s[n].length === expected(n)) && s.cellStart[cells] === meta.count && meta.states.length < MIXED_STATES;
  if (!ok) return null;
  s.buildMs = performance.now() - started;
  return s;
}

const TYPES = {
  lat: Float64Array, lng: Float64Array, cos: Float64Array, score: Int32Array, flags: Uint8Array, state: Uint16Array,
  rank: Uint32Array, idNum: Float64Array, idLen: Uint8Array, cellStart: Uint32Array, cellLat: Float64Array,
  cellLng: Float64Array, cellCos: Float64Array, cellRadius: Float64Array, cellMinScore: Int32Array, cellActive: Uint8Array,
  cellState: Uint16Array,
} as const;

function view(name: (typeof ARRAYS)[number], bytes: Uint8Array): ArrayBufferView {
  const T = TYPES[name];
  // Typed arrays need aligned offsets; copy when the blob's buffer does not provide one.
  const b = bytes.byteOffset % T.BYTES_PER_ELEMENT === 0 ? bytes : bytes.slice();
  return new T(b.buffer as ArrayBuffer, b.byteOffset, b.byteLength / T.BYTES_PER_ELEMENT);
}
