/** The most problems one message names: a body of 6,000 bad fields still gets a message of a few KiB. */
export const MAX_PROBLEMS_NAMED = 20;

/**
 * Problems as one message: the first MAX_PROBLEMS_NAMED, each cut at 200 characters, joined by
 * "; ", then how many more there are ("; and 5,980 more problems").
 */
export function problemsMessage(problems: readonly string[]): string {
  const named = problems.slice(0, MAX_PROBLEMS_NAMED).map((p) => (p.length > 200 ? `${p.slice(0, 200)}…` : p));
  const rest = problems.length - named.length;
  return rest > 0 ? `${named.join('; ')}; and ${rest.toLocaleString('en-US')} more ${rest === 1 ? 'problem' : 'problems'}` : named.join('; ');
}

/** Items named in a message: the first MAX_PROBLEMS_NAMED, then "(the first 20 of 6,000)". */
export function namedItems(items: readonly string[]): string {
  const shown = items.slice(0, MAX_PROBLEMS_NAMED).join(', ');
  return items.length > MAX_PROBLEMS_NAMED ? `${shown} (the first ${MAX_PROBLEMS_NAMED} of ${items.length.toLocaleString('en-US')})` : shown;
}
