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
   * Where the index file keeps it: `column`, a column of `facility` under the field's name; or
   * `evidence`, in the stored evidence (facility.evidence, ./evidence.ts), from which
   * declaredValuesOf derives it at the index's as-of date (so it needs no column of its own).
   */
  stored: 'column' | 'evidence';
};

/** The program ID columns joined in `program_ids`, in their order (programIdsText). */
export const PROGRAM_ID_FIELDS = ['air_ids', 'npdes_ids', 'rcra_ids', 'sdwa_ids', 'tri_ids'] as const;

export const DECLARED = {
  /** FAC_ACCURACY_METERS: how well lat/lng place the facility, metres (./location-quality.ts). */
  loc_accuracy_m: { kind: 'number', stored: 'column', area: 'locAccuracy' },
  /** FAC_COLLECTION_METHOD: EPA's Horizontal Collection Method words. */
  loc_method: { kind: 'word', stored: 'column', area: 'locMethod', words: 'methods' },
  /** AIR_IDS, NPDES_IDS, RCRA_IDS, SDWA_IDS, TRI_IDS: what a reader pulls a program's file by. */
  program_ids: { kind: 'text', stored: 'evidence', area: 'programIds' },
  /** The largest RCRA generator universe of RCRA_PERMIT_TYPES: LQG, SQG or VSQG (CESQG, the older name, reads VSQG). */
  rcra_generator_size: { kind: 'word', stored: 'evidence', area: 'generatorSize' },
  /** The latest quarter (YYYY-Qn) marked V or S in the CAA, CWA or RCRA quarter history. */
  latest_violation_quarter: { kind: 'word', stored: 'evidence', area: 'violationQuarter' },
  /** The latest formal or informal action, EPA or state. */
  latest_action_date: { kind: 'date', stored: 'evidence', area: 'actionDate' },
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

/** A row's declared column `k` as the writer stores it: NULL when not stated. */
export function declaredColumnValue(r: Partial<DeclaredValues>, k: ColumnKey): string | number | null {
  const v = r[k];
  return v === '' || v === undefined ? null : v;
}

/**
 * Every declared value of a facility: the columns' as given (`columns`: a mapped exporter row, or a
 * table row whose NULLs read as not stated), the rest derived from its evidence at `asOf`, the
 * index's as-of date. Ingest and a read of the table both make them here, so the two agree.
 */
export function declaredValuesOf(columns: { [K in ColumnKey]?: DeclaredValues[K] | null }, evidence: Partial<Evidence>, asOf: string): DeclaredValues {
  // one literal, field by field (its type asks for every declared field): it runs for every row at ingest
  return {
    loc_accuracy_m: columns.loc_accuracy_m ?? null,
    loc_method: columns.loc_method ?? '',
    program_ids: programIdsText(evidence),
    rcra_generator_size: generatorSizeOf(evidence),
    latest_violation_quarter: latestViolationQuarterOf(evidence, asOf),
    latest_action_date: latestActionDateOf(evidence),
  };
}

type Arrays = Record<string, unknown>;

/** A declared field as DeclaredPut fills it: its key and the array it goes in, in the columns being filled. */
type Put<A> = { key: DeclaredKey; name: string; target: A };
/** A word's field, with its list in the columns and each word's code in it. */
type WordPut = Put<Uint8Array> & { list: string; words: string[]; codes: Map<string, number> };
/** A text's field: its offsets (`<area>Start`) and its bytes. */
type TextPut = Put<Uint32Array> & { area: string; bytes: TextBytes };

const putsOf = (kind: Kind) => ENTRIES.filter(([, d]) => d.kind === kind);

/**
 * Puts rows' declared values into the area's columns (./area/spatial-collector.ts): words coded by
 * their list, texts appended. One per set of columns being filled; `done` hands over the texts.
 */
export class DeclaredPut {
  // the fields by kind, each kind's loop storing into one type of array (one loop over all kinds
  // stored into four types at one place, and closures per field were calls that could not be inlined:
  // either was a visible share of a row's collection at ingest)
  private readonly numbers: Put<Float32Array>[] = putsOf('number').map(([key, d]) => ({ key, name: d.area, target: new Float32Array(0) }));
  private readonly dates: Put<Int32Array>[] = putsOf('date').map(([key, d]) => ({ key, name: d.area, target: new Int32Array(0) }));
  private readonly words: WordPut[] = putsOf('word').map(([key, d]) => ({ key, name: d.area, target: new Uint8Array(0), list: wordsOf(d), words: [], codes: new Map() }));
  private readonly texts: TextPut[] = putsOf('text').map(([key, d]) => ({ key, name: `${d.area}Start`, target: new Uint32Array(0), area: d.area, bytes: new TextBytes() }));
  /** The columns the arrays were taken from (the collector's columns change only as they grow). */
  private bound: SpatialColumns | null = null;

  /** Row `row`'s declared values at position i (appended: texts go in order of position). */
  put(c: SpatialColumns, i: number, row: Partial<DeclaredValues>): void {
    if (c !== this.bound) this.bind(c);
    for (const f of this.numbers) f.target[i] = (row[f.key] as number | null | undefined) ?? NaN;
    for (const f of this.dates) {
      const v = row[f.key] as string | null | undefined;
      f.target[i] = v ? dateNumber(v) : 0;
    }
    for (const f of this.words) {
      const v = row[f.key] as string | undefined;
      f.target[i] = v ? wordCode(f, v) : 0;
    }
    for (const f of this.texts) f.target[i + 1] = f.bytes.push((row[f.key] as string | null | undefined) ?? '');
  }

  /** Sets the texts' bytes on `c` (the used part; a copy when `trim`). */
  done(c: SpatialColumns, trim: boolean): void {
    for (const f of this.texts) (c as unknown as Arrays)[`${f.area}Bytes`] = trim ? f.bytes.done() : f.bytes.bytes;
  }

  private bind(c: SpatialColumns): void {
    const arrays = c as unknown as Arrays;
    for (const f of this.numbers) f.target = arrays[f.name] as Float32Array;
    for (const f of this.dates) f.target = arrays[f.name] as Int32Array;
    for (const f of this.texts) f.target = arrays[f.name] as Uint32Array;
    for (const f of this.words) {
      f.target = arrays[f.name] as Uint8Array;
      f.words = arrays[f.list] as string[];
    }
    this.bound = c;
  }
}

/** A word's code in its field's list, added at its first use; '' (0) once the list is full. */
function wordCode(field: WordPut, word: string): number {
  let code = field.codes.get(word);
  if (code === undefined) {
    if (field.words.length >= 256) return 0;
    field.codes.set(word, (code = field.words.push(word) - 1));
  }
  return code;
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

/** YYYY-MM-DD as the number YYYYMMDD, read digit by digit (no substring per part: every dated row at ingest). */
function dateNumber(iso: string): number {
  let n = 0;
  for (let k = 0; k < 10; k++) if (k !== 4 && k !== 7) n = n * 10 + iso.charCodeAt(k) - 48;
  return n;
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
  const back = nearest(nearest(lastViolationBack(e.caa_history), lastViolationBack(e.cwa_history)), lastViolationBack(e.rcra_history));
  return back < 0 ? '' : quarterOf(asOf, back);
}

/** The smaller of two quarters back, -1 (none) counting as neither. */
function nearest(a: number, b: number): number {
  return a < 0 ? b : b < 0 ? a : Math.min(a, b);
}

/** quarterBefore for the last as-of date seen (a build derives every row at one date): each quarter named once, not per row. */
let quartersAsOf: string | null = null;
let quarters: string[] = [];
function quarterOf(asOf: string, back: number): string {
  if (asOf !== quartersAsOf) {
    quartersAsOf = asOf;
    quarters = [];
  }
  return (quarters[back] ??= quarterBefore(asOf, back));
}

function latestActionDateOf(e: Partial<Evidence>): string | null {
  return latestActionOf({
    last_formal_action_epa: e.last_formal_action_epa ?? null,
    last_informal_action_epa: e.last_informal_action_epa ?? null,
    last_formal_action_state: e.last_formal_action_state ?? null,
    last_informal_action_state: e.last_informal_action_state ?? null,
  }).date;
}
