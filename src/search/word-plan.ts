import type { DocidSpace } from '../index/search-tables/docids';
import type { SearchReader } from '../index/search-tables/reader';
import { matchExpression } from './match';
import { startsAWord } from './rank';

/** Candidates read per word, in docid order, to estimate how many facilities it matches. */
export const SAMPLE = 64;
/**
 * A word of five or more letters is looked up by its first four (a lazily read prefix list) when at
 * least this share of the facilities so starting match the whole word; otherwise by the whole word
 * (FTS5 merges the lists of every word it starts, in full, which is cheap only for a rare word).
 */
export const DENSE = 1 / 8;
/** Lengths with a prefix list (src/index/search-tables/table.ts, prefix='3 4'). */
const SHORTEST_LISTED = 3;
const LONGEST_LISTED = 4;
/** Word plans kept per open index; the plan depends only on the word and the index file. */
const CACHED = 10_000;

/** How one query word is searched. */
export type WordPlan = {
  word: string;
  /** The FTS5 prefix term that finds its candidates, or null: the word is only checked (a 1-2 letter word beside a longer one). */
  term: string | null;
  /** Whether candidates must be checked against the whole word (their term is shorter than it, or absent). */
  checked: boolean;
  /** Facilities the word matches, estimated from the sample (for the IDF of the relevance order). */
  docs: number;
};

export type QueryPlan = { expression: string; checked: boolean; words: WordPlan[] };

const letters = (w: string) => Array.from(w);

/**
 * Plans a query's words on one open index (docs/search.md, "How a query is read"). Every estimate
 * comes from the first SAMPLE candidates in docid order, i.e. score order, which is unrelated to
 * the words: the SAMPLE-th candidate's place in that order says what share of the index the word covers.
 */
export class WordPlanner {
  private readonly cache = new Map<string, WordPlan>();
  private readonly space: DocidSpace;
  private readonly total: number;

  constructor(private readonly reader: SearchReader) {
    this.space = reader.space;
    this.total = reader.space.total;
  }

  plan(words: readonly string[]): QueryPlan {
    const anyListed = words.some((w) => letters(w).length >= SHORTEST_LISTED);
    const plans = words.map((w) => (letters(w).length < SHORTEST_LISTED ? this.short(w, anyListed) : this.cached(w)));
    const terms = [...new Set(plans.flatMap((p) => (p.term === null ? [] : [p.term])))];
    return { expression: matchExpression(terms), checked: plans.some((p) => p.checked), words: plans };
  }

  /**
   * A 1-2 letter word starts too many words for any list: beside a longer word it is only checked
   * on that word's candidates; alone it is merged in full by FTS5 (slow, docs/search.md). It counts
   * as matching half the index (IDF ~0: it says little about which facility is meant).
   */
  private short(w: string, anyListed: boolean): WordPlan {
    return anyListed ? { word: w, term: null, checked: true, docs: this.total / 2 } : { word: w, term: w, checked: false, docs: this.total / 2 };
  }

  private cached(w: string): WordPlan {
    let plan = this.cache.get(w);
    if (!plan) {
      plan = letters(w).length <= LONGEST_LISTED ? this.listed(w) : this.long(w);
      if (this.cache.size >= CACHED) this.cache.clear();
      this.cache.set(w, plan);
    }
    return plan;
  }

  /** A 3-4 letter word has its own prefix list. */
  private listed(w: string): WordPlan {
    const ids = this.reader.firstMatches(matchExpression([w]), SAMPLE);
    return { word: w, term: w, checked: false, docs: this.estimate(ids.length, ids.length, ids.at(-1)?.docid ?? 0) };
  }

  /** A word of 5+ letters: by its first four letters and checked, when the word is common among them; else whole. */
  private long(w: string): WordPlan {
    const head = letters(w).slice(0, LONGEST_LISTED).join('');
    const rows = this.reader.firstMatchFields(matchExpression([head]), SAMPLE);
    const matching = rows.filter((r) => startsAWord(r, w)).length;
    const docs = this.estimate(rows.length, matching, rows.at(-1)?.docid ?? 0);
    const dense = rows.length === SAMPLE && matching >= DENSE * SAMPLE;
    return dense ? { word: w, term: head, checked: true, docs } : { word: w, term: w, checked: false, docs };
  }

  /** Facilities matching, from `matching` of the first `sampled` candidates, the last at docid `last` (at place 1..total). */
  private estimate(sampled: number, matching: number, last: number): number {
    if (sampled < SAMPLE) return matching; // every candidate was read: exact
    return (Math.max(matching, 0.5) * this.total) / Math.max(1, this.space.position(last));
  }
}
