/**
 * Long work in a serving process is cut into pieces with `nextTurn()` between them, so requests
 * are answered while it runs: a promise that resolves on an already-settled value would not let
 * them in (it continues in the same turn), `setImmediate` does, after pending I/O.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** JSON texts parsed with a turn for requests after about every MiB (an account's lists at their limits are many MiB). */
export async function parseInTurns<T>(texts: readonly string[]): Promise<T[]> {
  const out: T[] = [];
  let since = 0;
  for (const text of texts) {
    out.push(JSON.parse(text) as T);
    since += text.length;
    if (since >= 1 << 20) {
      since = 0;
      await nextTurn();
    }
  }
  return out;
}
