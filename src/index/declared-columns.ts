import type { ArrayTypeName, Carried, SpatialColumns, SpatialIndex } from '../area/spatial-index';
import { bufferOf, TextBytes, textReader } from '../area/text-bytes';
import { latestActionOf, type Evidence } from './evidence';

/**
 * The facility fields a site report reads beyond identity, score and site facts, declared once and
 * keyed by their IndexRow field (./index-row.ts): each one's kind (how its value is kept), where the
 * index file keeps it, and the array the area file carries it in. The row type, the facility
 * table's columns (./schema.ts), the writer, the area collector, the layout's columns file, the area
 * file's arrays and their CRC-32s and the values a report reads back all follow from this table. A
 * new field is read from the exporter (src/ingest/), declared here and shown in its answer's schema
 * (src/site-report/finding-detail.ts).
 */

/** How a declared value is kept: in its own SQLite column (`sql`), in the area file (`array`), and when not stated (`empty`). */
const KINDS = {
  /** A number, null when not stated: a REAL column; a Float32 in the area file (NaN: null). */
  number: { sql: 'REAL', array: 'Float32Array', empty: null as number | null },
  /**
   * A word of a short closed list, '' when none: a TEXT column (NULL for ''); a byte in the area file
   * indexing the list of its words ('' first) in the file's header. A list holds 256 words: a later
   * word reads ''.
   */
  word: { sql: 'TEXT', array: 'Uint8Array', empty: '' as string },
  /** A date (YYYY-MM-DD), null when none: a TEXT column; an Int32 YYYYMMDD in the area file (0: null). */
  date: { sql: 'TEXT', array: 'Int32Array', empty: null as string | null },
  /** A text, '' when none: a TEXT column (NULL for ''); UTF-8 with an offset per facility in the area file, as names are kept. */
  text: { sql: 'TEXT', array: 'text', empty: '' as string },
} as const;
type Kind = keyof typeof KINDS;
type Value = (typeof KINDS)[Kind]['empty'];

type Declared = {
  kind: Kind;
  /** Its array in the area file and the laid-out index (a text's: `<area>Start` and `<area>Bytes`). */
  area: string;
  /** A word's list of words there (default `<area>Words`). */
  words?: string;
  /**
   * Where the index file keeps it: `column`, a column of `facility` under the field's name; or in
   * the stored evidence (facility.evidence, ./evidence.ts), from which `evidence` derives it at the
   * index's as-of date (the index holds it there, so it needs no column of its own).
   */
  stored: 'column' | { evidence: (e: Partial<Evidence>, asOf: string) => Value };
};

/** The program ID columns joined in `program_ids`, in their order (programIdsText). */
export const PROGRAM_ID_FIELDS = ['air_ids', 'npdes_ids', 'rcra_ids', 'sdwa_ids', 'tri_ids'] as const;

export const DECLARED = {
  /** FAC_ACCURACY_METERS: how well lat/lng place the facility, metres (./location-quality.ts). */
  loc_accuracy_m: { kind: 'number', stored: 'column', area: 'locAccuracy' },
  /** FAC_COLLECTION_METHOD: EPA's Horizontal Collection Method words. */
  loc_method: { kind: 'word', stored: 'column', area: 'locMethod', words: 'methods' },
  /** AIR_IDS, NPDES_IDS, RCRA_IDS, SDWA_IDS, TRI_IDS: what a reader pulls a program's file by. */
  program_ids: { kind: 'text', stored: { evidence: programIdsText }, area: 'programIds' },
  /** The largest RCRA generator universe of RCRA_PERMIT_TYPES: LQG, SQG or VSQG (CESQG, the older name, reads VSQG). */
  rcra_generator_size: { kind: 'word', stored: { evidence: generatorSizeOf }, area: 'generatorSize' },
  /** The latest quarter (YYYY-Qn) marked V or S in the CAA, CWA or RCRA quarter history. */
  latest_violation_quarter: { kind: 'word', stored: { evidence: latestViolationQuarterOf }, area: 'violationQuarter' },
  /** The latest formal or informal action, EPA or state. */
  latest_action_date: { kind: 'date', stored: { evidence: latestActionDateOf }, area: 'actionDate' },
} as const satisfies Record<string, Declared>;

type D = typeof DECLARED;
export type DeclaredKey = keyof D;
/** Every declared field's value. */
export type DeclaredValues = { -readonly [K in DeclaredKey]: (typeof KINDS)[D[K]['kind']]['empty'] };
/** The fields kept in columns of their own. */
export type ColumnKey = { [K in DeclaredKey]: D[K]['stored'] extends 'column' ? K : never }[DeclaredKey];

type ArrayOfKind = { number: Float32Array; word: Uint8Array; date: Int32Array };
type WordsOf<E> = E extends { words: infer W extends string } ? W : E extends { area: infer A extends string } ? `${A}Words` : never;
/** The arrays the declared fields add to the area's columns and index, typed. */
export type DeclaredArrays = { [K in DeclaredKey as D[K]['kind'] extends 'text' ? never : D[K]['area']]: ArrayOfKind[Exclude<D[K]['kind'], 'text'>] } & {
  [K in DeclaredKey as D[K]['kind'] extends 'text' ? `${D[K]['area']}Start` : never]: Uint32Array;
} & { [K in DeclaredKey as D[K]['kind'] extends 'text' ? `${D[K]['area']}Bytes` : never]: Uint8Array } & {
  [K in DeclaredKey as D[K]['kind'] extends 'word' ? WordsOf<D[K]> : never]: string[];
};
/** Facilities without coordinates, beside the area index by ZIP (./area/unplaced.ts): the columns every index has, and each one's ZIP5 as a number. */
export type UnplacedColumns = SpatialColumns & { zip5: Uint32Array };
/** The area's columns with the declared arrays, and the facilities without coordinates beside them (./area/spatial-collector.ts). */
export type AreaColumns = SpatialColumns & DeclaredArrays & { unplaced?: UnplacedColumns };
/** A laid-out area index with the declared arrays and the facilities without coordinates. */
export type AreaIndex = SpatialIndex & DeclaredArrays & { unplaced?: UnplacedColumns };

const ENTRIES = Object.entries(DECLARED) as [DeclaredKey, Declared][];
const wordsOf = (d: Declared) => d.words ?? `${d.area}Words`;

/** What the area file carries beyond what the search reads: every declared field. */
export const AREA_CARRIED: Carried = {
  fixed: ENTRIES.filter(([, d]) => d.kind !== 'text').map(([, d]) => [d.area, KINDS[d.kind].array as ArrayTypeName] as const),
  texts: ENTRIES.filter(([, d]) => d.kind === 'text').map(([, d]) => d.area),
  words: ENTRIES.filter(([, d]) => d.kind === 'word').map(([, d]) => wordsOf(d)),
};

const IN_COLUMNS = ENTRIES.filter(([, d]) => d.stored === 'column');
/** The fields kept in columns of `facility`, in the table's order (after the columns every row has). */
export const DECLARED_COLUMNS = IN_COLUMNS.map(([k]) => k) as ColumnKey[];
/** Their part of the facility table's definition (./schema.ts). */
export const DECLARED_COLUMNS_DDL = IN_COLUMNS.map(([k, d]) => `,\n  ${k} ${KINDS[d.kind].sql}`).join('');
/** Whether a declared field is derived from the stored evidence (a table read then reads facility.evidence). */
export const DERIVED_FROM_EVIDENCE = ENTRIES.some(([, d]) => d.stored !== 'column');

/** A row's declared columns as the writer stores them, in DECLARED_COLUMNS order: NULL when not stated. */
export function declaredColumnValues(r: Partial<DeclaredValues>): (string | number | null)[] {
  return DECLARED_COLUMNS.map((k) => (r[k] === '' ? null : (r[k] ?? null)));
}

/**
 * Every declared value of a facility: the columns' as given (`columns`: a mapped exporter row, or a
 * table row whose NULLs read as not stated), the rest derived from its evidence at `asOf`, the
 * index's as-of date. Ingest and a read of the table both make them here, so the two agree.
 */
export function declaredValuesOf(columns: { [K in ColumnKey]?: DeclaredValues[K] | null }, evidence: Partial<Evidence>, asOf: string): DeclaredValues {
  const out = {} as Record<DeclaredKey, Value>;
  for (const [k, d] of ENTRIES) out[k] = d.stored === 'column' ? (columns[k as ColumnKey] ?? KINDS[d.kind].empty) : d.stored.evidence(evidence, asOf);
  return out as DeclaredValues;
}

type Arrays = Record<string, unknown>;

/**
 * Puts rows' declared values into the area's columns (./area/spatial-collector.ts): words coded by
 * their list, texts appended. One per set of columns being filled; `done` hands over the texts.
 */
export class DeclaredPut {
  private readonly texts = new Map<string, TextBytes>();
  private readonly codes = new Map<string, Map<string, number>>();
  private readonly puts: ((c: Arrays, i: number, v: Value | undefined) => void)[] = [];
  private readonly keys: DeclaredKey[] = [];

  constructor() {
    for (const [k, d] of ENTRIES) {
      this.keys.push(k);
      const a = d.area;
      if (d.kind === 'number') this.puts.push((c, i, v) => ((c[a] as Float32Array)[i] = (v as number | null | undefined) ?? NaN));
      else if (d.kind === 'date') this.puts.push((c, i, v) => ((c[a] as Int32Array)[i] = v ? dateNumber(v as string) : 0));
      else if (d.kind === 'text') {
        const bytes = new TextBytes();
        this.texts.set(a, bytes);
        this.puts.push((c, i, v) => ((c[`${a}Start`] as Uint32Array)[i + 1] = bytes.push((v as string | null | undefined) ?? '')));
      } else {
        const list = wordsOf(d);
        const codes = new Map<string, number>();
        this.codes.set(list, codes);
        this.puts.push((c, i, v) => {
          if (!v) return void ((c[a] as Uint8Array)[i] = 0);
          const words = c[list] as string[];
          let code = codes.get(v as string);
          if (code === undefined && words.length < 256) codes.set(v as string, (code = words.push(v as string) - 1));
          (c[a] as Uint8Array)[i] = code ?? 0;
        });
      }
    }
  }

  /** Row `row`'s declared values at position i (appended: texts go in order of position). */
  put(c: SpatialColumns, i: number, row: Partial<DeclaredValues>): void {
    const arrays = c as unknown as Arrays;
    for (let f = 0; f < this.keys.length; f++) this.puts[f]!(arrays, i, row[this.keys[f]!]);
  }

  /** Sets the texts' bytes on `c` (the used part; a copy when `trim`). */
  done(c: SpatialColumns, trim: boolean): void {
    for (const [a, bytes] of this.texts) (c as unknown as Arrays)[`${a}Bytes`] = trim ? bytes.done() : bytes.bytes;
  }
}

/**
 * The declared fields of the facility at each position of a laid-out index, as values: how a report
 * reads them back. Throws when the index does not carry them (one built by other code).
 */
export function declaredReader(s: SpatialIndex): { [K in DeclaredKey]: (p: number) => DeclaredValues[K] } {
  const a = areaArrays(s) as unknown as Arrays;
  const out = {} as Record<DeclaredKey, (p: number) => Value>;
  for (const [k, d] of ENTRIES) {
    if (d.kind === 'number') {
      const v = a[d.area] as Float32Array;
      out[k] = (p) => (Number.isNaN(v[p]!) ? null : v[p]!);
    } else if (d.kind === 'date') {
      const v = a[d.area] as Int32Array;
      out[k] = (p) => (v[p] === 0 ? null : dateText(v[p]!));
    } else if (d.kind === 'text') out[k] = textReader(a[`${d.area}Start`] as Uint32Array, a[`${d.area}Bytes`] as Uint8Array);
    else {
      const v = a[d.area] as Uint8Array, words = a[wordsOf(d)] as string[];
      out[k] = (p) => words[v[p]!] ?? '';
    }
  }
  return out as { [K in DeclaredKey]: (p: number) => DeclaredValues[K] };
}

/** The declared arrays of `s`, typed; throws when it does not carry them. */
export function areaArrays<S extends SpatialColumns>(s: S): S & DeclaredArrays {
  const missing = [...AREA_CARRIED.fixed.map(([n]) => n), ...AREA_CARRIED.texts.map((n) => `${n}Start`), ...AREA_CARRIED.words].find((n) => !(n in s));
  if (missing !== undefined) throw new Error(`the area index carries no ${missing}`);
  return s as S & DeclaredArrays;
}

function dateNumber(iso: string): number {
  return Number(iso.slice(0, 4)) * 10_000 + Number(iso.slice(5, 7)) * 100 + Number(iso.slice(8, 10));
}

const two = (n: number) => (n < 10 ? `0${n}` : String(n));
function dateText(v: number): string {
  return `${String(Math.floor(v / 10_000)).padStart(4, '0')}-${two(Math.floor(v / 100) % 100)}-${two(v % 100)}`;
}

// ---- the values derived from the stored evidence

/**
 * The program ID lists joined: IDs by a space, lists by a tab, in PROGRAM_ID_FIELDS order ('' when
 * every list is empty). An ID holds neither: the exporter's cells are split at white space.
 */
export function programIdsText(e: Partial<Evidence>): string {
  // built as one string (no array of lists to join): it runs for every row at ingest
  let text = '', any = false;
  for (let i = 0; i < PROGRAM_ID_FIELDS.length; i++) {
    const ids = e[PROGRAM_ID_FIELDS[i]!];
    if (i > 0) text += '\t';
    if (ids && ids.length > 0) {
      text += ids.join(' ');
      any = true;
    }
  }
  return any ? text : '';
}

const NO_IDS: readonly string[] = Object.freeze([]);
const NO_LISTS = PROGRAM_ID_FIELDS.map(() => NO_IDS as string[]);
const TAB = 9, SPACE = 32;

/**
 * programIdsText read back from the area index, list by list in PROGRAM_ID_FIELDS order, each ID
 * decoded from its bytes (no text per facility to split); empty lists shared, read-only.
 */
export function programIdsReader(s: SpatialIndex): (p: number) => string[][] {
  const { programIdsStart: start, programIdsBytes: bytes } = areaArrays(s);
  const b = bufferOf(bytes);
  return (p) => {
    const from = start[p]!, to = start[p + 1]!;
    if (from === to) return NO_LISTS;
    const lists: string[][] = [];
    let list: string[] | null = null, at = from;
    for (let k = from; k <= to; k++) {
      const c = k < to ? bytes[k]! : TAB;
      if (c !== TAB && c !== SPACE) continue;
      if (k > at) (list ??= []).push(b.toString('utf8', at, k));
      if (c === TAB) {
        lists.push(list ?? (NO_IDS as string[]));
        list = null;
      }
      at = k + 1;
    }
    return lists;
  };
}

function generatorSizeOf(e: Partial<Evidence>): string {
  const u = e.rcra_universes ?? NO_IDS;
  return u.includes('LQG') ? 'LQG' : u.includes('SQG') ? 'SQG' : u.includes('VSQG') || u.includes('CESQG') ? 'VSQG' : '';
}

/** The quarter `back` quarters before the one holding `asOf` (YYYY-MM-DD), as YYYY-Qn. */
export function quarterBefore(asOf: string, back: number): string {
  const q = Number(asOf.slice(0, 4)) * 4 + Math.floor((Number(asOf.slice(5, 7)) - 1) / 3) - back;
  return `${Math.floor(q / 4)}-Q${(q % 4) + 1}`;
}

/** Quarters back from the latest of the last V or S of a history (oldest first), or -1. */
function lastViolationBack(history: string | null | undefined): number {
  if (!history) return -1;
  const at = Math.max(history.lastIndexOf('V'), history.lastIndexOf('S'));
  return at < 0 ? -1 : history.length - 1 - at;
}

/** Each history's last quarter is the as-of date's: the latest violation of the three, or ''. */
function latestViolationQuarterOf(e: Partial<Evidence>, asOf: string): string {
  let back = Infinity;
  for (const h of [e.caa_history, e.cwa_history, e.rcra_history]) {
    const b = lastViolationBack(h);
    if (b >= 0 && b < back) back = b;
  }
  return back === Infinity ? '' : quarterBefore(asOf, back);
}

function latestActionDateOf(e: Partial<Evidence>): string | null {
  return latestActionOf({
    last_formal_action_epa: e.last_formal_action_epa ?? null,
    last_informal_action_epa: e.last_informal_action_epa ?? null,
    last_formal_action_state: e.last_formal_action_state ?? null,
    last_informal_action_state: e.last_informal_action_state ?? null,
  }).date;
}
