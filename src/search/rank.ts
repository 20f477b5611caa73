/** A facility's searched fields: name, street, city, ZIP. */
export type Fields = { fac_name: string; fac_street: string; fac_city: string; fac_zip: string };

/** Field weights of the relevance order (name, street, city, ZIP): a word in the name counts most. */
const WEIGHTS = [4, 1, 2, 2] as const;
// FTS5's bm25() constants (https://sqlite.org/fts5.html#the_bm25_function).
const K1 = 1.2;
const B = 0.75;

// The index's word rule (src/search/match.ts, tokenize='ascii'): ASCII letters and digits, and every
// non-ASCII character, are word characters. Scanned by char code: this runs for up to
// RANKED_MATCHES facilities per search, and allocating their words as strings costs more than the rest.
const isWordChar = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c >= 128;

/** Whether `w` (lower-case ASCII, non-ASCII as typed) starts `text` at `at`, ASCII case folded. */
function startsAt(text: string, at: number, w: string): boolean {
  if (at + w.length > text.length) return false;
  for (let i = 0; i < w.length; i++) {
    let c = text.charCodeAt(at + i);
    if (c >= 65 && c <= 90) c += 32;
    if (c !== w.charCodeAt(i)) return false;
  }
  return true;
}

/** How many words of `text` start with `w`; stops at the first when `first`. */
function starts(text: string, w: string, first: boolean): number {
  let n = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const word = isWordChar(text.charCodeAt(i));
    if (word && !inWord && startsAt(text, i, w)) {
      n++;
      if (first) return n;
    }
    inWord = word;
  }
  return n;
}

/** How many words `text` holds. */
function words(text: string): number {
  let n = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const word = isWordChar(text.charCodeAt(i));
    if (word && !inWord) n++;
    inWord = word;
  }
  return n;
}

const fieldsOf = (f: Fields) => [f.fac_name, f.fac_street, f.fac_city, f.fac_zip] as const;

/** Whether `w` starts a word of some field. */
export function startsAWord(f: Fields, w: string): boolean {
  return fieldsOf(f).some((text) => starts(text, w, true) > 0);
}

/** Whether every query word starts a word of some field: the search's match rule, checked here. */
export function matchesAll(f: Fields, ws: readonly string[]): boolean {
  return ws.every((w) => startsAWord(f, w));
}

/** How many words a facility's fields hold (BM25's document length). */
export function wordCount(f: Fields): number {
  return words(f.fac_name) + words(f.fac_street) + words(f.fac_city) + words(f.fac_zip);
}

/**
 * FTS5's bm25() with the field weights, computed here from the facility's own fields, so the index
 * keeps no positions or field lengths (src/index/search-tables/table.ts): for each query word, its
 * weighted count of words it starts (4 per word of the name, 2 city, 2 ZIP, 1 street), saturated
 * by the facility's word count against `avgWords`, times the word's IDF. Negated like bm25(), so
 * smaller is better and the order is ascending.
 */
export function relevance(f: Fields, ws: readonly string[], idf: readonly number[], avgWords: number): number {
  const fields = fieldsOf(f);
  const lengthNorm = K1 * (1 - B + (B * wordCount(f)) / avgWords);
  let score = 0;
  for (let i = 0; i < ws.length; i++) {
    let freq = 0;
    for (let c = 0; c < 4; c++) freq += WEIGHTS[c]! * starts(fields[c]!, ws[i]!, false);
    score += (idf[i]! * (freq * (K1 + 1))) / (freq + lengthNorm);
  }
  return -score;
}

/** FTS5's IDF of a word matching `docs` of `total` facilities (never 0 or below, as in bm25()). */
export function idf(docs: number, total: number): number {
  const v = Math.log((total - docs + 0.5) / (docs + 0.5));
  return v > 0 ? v : 1e-6;
}
