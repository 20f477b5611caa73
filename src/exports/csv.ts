/** A flat CSV cell's value: what a nested item field becomes (flattenItem). */
type Cell = string | number | boolean | null;

/**
 * One item as flat columns, in field order. Nested objects are flattened with dotted names
 * (`location: {lat, lng}` -> `location.lat`, `location.lng`, to any depth); a list becomes one
 * plain-text cell, its items joined with "; " (a spreadsheet reader should not have to read JSON);
 * null and undefined become an empty cell. Derived from the item
 * object itself, so a field added to an item schema appears as a column without touching this file.
 */
export function flattenItem(item: Record<string, unknown>, prefix = '', out: Record<string, Cell> = {}): Record<string, Cell> {
  for (const [k, v] of Object.entries(item)) {
    const name = prefix + k;
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) flattenItem(v as Record<string, unknown>, `${name}.`, out);
    else if (Array.isArray(v)) out[name] = v.map((x) => (x !== null && typeof x === 'object' ? JSON.stringify(x) : String(x))).join('; ');
    else out[name] = v === undefined ? null : (v as Cell);
  }
  return out;
}

const NEEDS_QUOTES = /[",\r\n]/;
// A cell a spreadsheet would run as a formula (OWASP "CSV injection"); numbers are never touched.
const FORMULA_START = /^[=+\-@\t\r]/;

function cell(v: Cell): string {
  if (v === null) return '';
  if (typeof v !== 'string') return String(v);
  const s = FORMULA_START.test(v) ? `'${v}` : v;
  return NEEDS_QUOTES.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * Written here, not with csv-stringify: the library cost several times as much per export
 * (docs/benchmarks.md, "Libraries", CSV row, with its command).
 *
 * RFC 4180 CSV of `items`: a header row, then one row per item, CRLF line ends, a field quoted
 * when it holds a comma, a quote or a line break (quotes doubled). Columns are the union of the
 * items' flattened fields in order of first appearance; an item without a column has an empty cell.
 * An empty list still has its header, from `emptyColumns`.
 */
export function toCsv(items: readonly Record<string, unknown>[], emptyColumns: readonly string[] = []): string {
  const rows = items.map((i) => flattenItem(i));
  const columns: string[] = [];
  const seen = new Set<string>();
  for (const r of rows) for (const c of Object.keys(r)) if (!seen.has(c)) (seen.add(c), columns.push(c));
  // A field null in one item and an object in another (score_change, peers) keeps only the dotted
  // columns: the null item's cells there are empty, and no lone `score_change` column appears.
  const nested = new Set(columns.flatMap((c) => c.split('.').slice(1).map((_, i, rest) => c.split('.').slice(0, i + 1).join('.'))));
  for (let i = columns.length - 1; i >= 0; i--) if (nested.has(columns[i]!)) columns.splice(i, 1);
  if (columns.length === 0) columns.push(...emptyColumns);
  const lines = [columns.map((c) => cell(c)).join(',')];
  for (const r of rows) lines.push(columns.map((c) => cell(r[c] ?? null)).join(','));
  return lines.join('\r\n') + '\r\n';
}
