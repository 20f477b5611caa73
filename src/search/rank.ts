import { queryWords } from './match';

/** A facility's searched fields, as the index's words: name, street, city, ZIP. */
export type FieldWords = [string[], string[], string[], string[]];

/** Field weights of the relevance order (name, street, city, ZIP): a word in the name counts most. */
const WEIGHTS = [4, 1, 2, 2] as const;
// FTS5's bm25() constants (https://sqlite.org/fts5.html#the_bm25_function).
const K1 = 1.2;
const B = 0.75;

export function fieldWords(f: { fac_name: string; fac_street: string; fac_city: string; fac_zip: string }): FieldWords {
  return [queryWords(f.fac_name), queryWords(f.fac_street), queryWords(f.fac_city), queryWords(f.fac_zip)];
}

/** Whether every query word starts a word of some field: the search's match rule, checked here. */
export function matchesAll(fields: FieldWords, words: readonly string[]): boolean {
  return words.every((w) => fields.some((field) => field.some((t) => t.startsWith(w))));
}

/** How many words a facility's fields hold (BM25's document length). */
export function wordCount(fields: FieldWords): number {
  return fields[0].length + fields[1].length + fields[2].length + fields[3].length;
}

/**
 * FTS5's bm25() with the field weights, computed here from the facility's own fields, so the index
 * keeps no positions or field lengths (src/index/search-table.ts): for each query word, its
 * weighted count of words it starts (4 per word of the name, 2 city, 2 ZIP, 1 street), saturated
 * by the facility's word count against `avgWords`, times the word's IDF. Negated like bm25(), so
 * smaller is better and the order is ascending.
 */
export function relevance(fields: FieldWords, words: readonly string[], idf: readonly number[], avgWords: number): number {
  const lengthNorm = K1 * (1 - B + (B * wordCount(fields)) / avgWords);
  let score = 0;
  for (let i = 0; i < words.length; i++) {
    let freq = 0;
    for (let c = 0; c < 4; c++) for (const t of fields[c]!) if (t.startsWith(words[i]!)) freq += WEIGHTS[c]!;
    score += (idf[i]! * (freq * (K1 + 1))) / (freq + lengthNorm);
  }
  return -score;
}

/** FTS5's IDF of a word matching `docs` of `total` facilities (never 0 or below, as in bm25()). */
export function idf(docs: number, total: number): number {
  const v = Math.log((total - docs + 0.5) / (docs + 0.5));
  return v > 0 ? v : 1e-6;
}
