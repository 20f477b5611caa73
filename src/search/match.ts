/** Longest `q` accepted, in characters; a longer one is a 422 (no facility line is near this long). */
export const MAX_QUERY_CHARS = 200;
/** Most words in `q`; each is a prefix term every match must contain. */
export const MAX_QUERY_WORDS = 12;

// The index's tokenizer ('ascii', src/index/search-tables/table.ts): every ASCII character that is not a
// letter or digit separates words; non-ASCII characters belong to words. Same rule here, so each
// query word is exactly one index word.
const SEPARATORS = /[\x00-\x2F\x3A-\x40\x5B-\x60\x7B-\x7F]+/;

/** The words of a query as the index sees them: split like the index, ASCII lower-cased. */
export function queryWords(q: string): string[] {
  return q
    .split(SEPARATORS)
    .filter((w) => w !== '')
    .map((w) => w.replace(/[A-Z]+/g, (s) => s.toLowerCase()));
}

/**
 * The FTS5 MATCH expression for `words`: every word a quoted prefix term, all required
 * (`"acme"* "plat"*`). Words hold no ASCII punctuation (so no `"`), and a quoted string is always
 * text to FTS5, never an operator: `NEAR`, `AND`, `OR` and `NOT` typed by a user are words.
 */
export function matchExpression(words: readonly string[]): string {
  return words.map((w) => `"${w}"*`).join(' ');
}

/** EPA's registry IDs: 12 digits. */
const REGISTRY_ID = /^\d{12}$/;

/**
 * The registry ID a query names: its one word when that is 12 digits, else null. Only a whole ID
 * counts: IDs share long prefixes (the sample's all start 9900), so a prefix names no facility.
 */
export function registryIdIn(words: readonly string[]): string | null {
  return words.length === 1 && REGISTRY_ID.test(words[0]!) ? words[0]! : null;
}
