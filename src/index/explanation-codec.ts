import type { ExplainedComponents } from '../scoring/explain';
import { MAX_POINTS, type ScoreExplanation } from '../scoring/model';

/**
 * Compact storage of the explanation's sentences (column facility.detail): each
 * sentence is a template (table reason_template: its text cut at every number, date or dollar
 * amount) and the values that fill it. The sentences' shapes are few (a few dozen templates
 * nationally), so a facility stores its four sentences in a small fraction of their text. Lossless for
 * any text: a value is the exact substring it replaced.
 */

/** A run of digits, with inner separators: 12, 94,770, 2025-03-14, 1.5. */
const HOLE = /\d+(?:[.,-]\d+)*/g;
/** Values stored as JSON numbers (shorter): plain integers that print back to the same text. */
const PLAIN_INT = /^(?:0|[1-9]\d{0,14})$/;
const MARK = '\u0000';
/** Distinct sentences remembered whole (ReasonTemplates.seen), a sentence's text each: bounds their memory. */
const SEEN_LIMIT = 100_000;

/** The components the API's `explanation` lists, in its order (MAX_POINTS order). */
export const EXPLAINED = Object.keys(MAX_POINTS) as (keyof typeof MAX_POINTS)[];

/** The stored sentences of one facility, by component. */
export type StoredExplanation = ExplainedComponents;

/** One stored template: its id and its text pieces (JSON), the values go between the pieces. */
export type TemplateRow = [id: number, pieces: string];

/**
 * Assigns template ids during a build (ids are per index file). Not shared between threads: the
 * ingest producer owns one and hands the new templates to the writer with each batch (`drain`).
 */
export class ReasonTemplates {
  private readonly ids = new Map<string, number>();
  private fresh: TemplateRow[] = [];
  /**
   * Whole sentences already encoded: most facilities share theirs ("No penalties in the last 5
   * years"), and a map hit is cheaper than cutting the sentence again. Bounded, so memory is too.
   */
  private readonly seen = new Map<string, (string | number)[]>();

  /** Appends the id of `reason`'s template and then its values to `out`. */
  encode(reason: string, out: (string | number)[]): void {
    const known = this.seen.get(reason);
    if (known !== undefined) {
      for (let i = 0; i < known.length; i++) out.push(known[i]!);
      return;
    }
    const at = out.length;
    out.push(0);
    // runs 4 times a row at ingest: one regex pass, the key is the text with each value cut out
    const key = reason.replace(HOLE, (value) => {
      out.push(PLAIN_INT.test(value) ? Number(value) : value);
      return MARK;
    });
    let id = this.ids.get(key);
    if (id === undefined) {
      if (reason.includes(MARK)) throw new Error('an explanation sentence holds a NUL character');
      id = this.ids.size;
      this.ids.set(key, id);
      this.fresh.push([id, JSON.stringify(key.split(MARK))]);
    }
    out[at] = id;
    if (this.seen.size < SEEN_LIMIT) this.seen.set(reason, out.slice(at));
  }

  /** The explanation of a facility as stored: its four sentences' templates and values, flat. */
  encodeExplanation(why: ScoreExplanation, out: (string | number)[]): void {
    for (const c of EXPLAINED) this.encode(why[c], out);
  }

  /** Templates first seen since the last call, to be written with the rows that use them. */
  drain(): TemplateRow[] {
    const out = this.fresh;
    this.fresh = [];
    return out;
  }
}

/** Reads stored explanations back: the index's templates, held in memory. */
export class ReasonDecoder {
  /** Per template id: the text pieces the values go between. */
  private readonly pieces: string[][] = [];

  constructor(rows: Iterable<TemplateRow>) {
    for (const [id, text] of rows) this.pieces[id] = JSON.parse(text) as string[];
  }

  /**
   * The sentences of the explained components from the stored values starting at `stored[from]`;
   * the API's lines (with the points lost, from the stored row) are made from them by
   * explanationLines (src/scoring/explain.ts), as for an explanation derived per request.
   */
  explanation(stored: readonly unknown[], from: number): StoredExplanation {
    const why = {} as StoredExplanation;
    let at = from;
    for (const component of EXPLAINED) {
      const pieces = this.pieces[stored[at++] as number];
      if (pieces === undefined) throw new Error(`explanation template ${String(stored[at - 1])} is not in the index`);
      let reason = pieces[0]!;
      for (let i = 1; i < pieces.length; i++) reason += String(stored[at++]) + pieces[i]!;
      why[component] = reason;
    }
    return why;
  }
}
