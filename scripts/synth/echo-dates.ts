/** Dates as the exporter writes them (MM/DD/YYYY), and days between as-of dates (YYYY-MM-DD, UTC midnight). */
export const DAY_MS = 86_400_000;

export const toMs = (iso: string) => Date.parse(`${iso}T00:00:00Z`);

/** ECHO's MM/DD/YYYY of epoch ms (UTC midnight). */
export function mdy(ms: number): string {
  const d = new Date(ms);
  return `${String(d.getUTCMonth() + 1).padStart(2, '0')}/${String(d.getUTCDate()).padStart(2, '0')}/${d.getUTCFullYear()}`;
}

export function fromMdy(s: string): number | null {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(s);
  return m ? Date.UTC(Number(m[3]), Number(m[1]) - 1, Number(m[2])) : null;
}

/**
 * The as-of date a row implies, from its last inspection date and the days since (the way ingest
 * infers it), or null when the row has neither.
 */
export function rowAsOf(f: readonly string[], col: Readonly<Record<string, number>>): string | null {
  const inspected = fromMdy(f[col.FAC_DATE_LAST_INSPECTION!] ?? '');
  const days = f[col.FAC_DAYS_LAST_INSPECTION!] ?? '';
  if (inspected === null || !/^\d+$/.test(days)) return null;
  return new Date(inspected + Number(days) * DAY_MS).toISOString().slice(0, 10);
}
