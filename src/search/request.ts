/** The sort key of the last facility of a page: the next page starts strictly after it. */
export type CursorKey = { value: number; registryId: string };

/** A search as plain values, already validated. */
export type SearchRequest = {
  /** The query's words (src/search/match.ts), at least one. */
  words: string[];
  state: string | null;
  /** NAICS prefix, 2 to 6 digits. */
  naics: string | null;
  minScore: number | null;
  maxScore: number | null;
  activeEnforcement: boolean | null;
  sort: 'relevance' | 'score';
  limit: number;
  /** Where the previous page ended; null for the first page. */
  after: CursorKey | null;
};
