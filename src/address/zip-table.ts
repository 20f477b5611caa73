import { readFileSync } from 'node:fs';
// The path of data/zip-table.tsv (scripts/zip-table.ts makes it); `bun build --compile` embeds the file.
import zipTablePath from '../../data/zip-table.tsv' with { type: 'file' };

/** One 5-digit US ZIP of the bundled table: its centre, state and city (from the `zipcodes` package). */
export type ZipRecord = Readonly<{ zip: string; lat: number; lng: number; state: string; city: string }>;

/** The table as columns in ZIP order: a ZIP is found by binary search, a record made only when asked for. */
type Table = { zip: Uint32Array; lat: Float64Array; lng: Float64Array; state: string[]; city: string[] };
let table: Table | undefined;

/**
 * The table, read on first use: a process that never meets a ZIP-only address, a ZIP centre or a
 * city never pays for it. The one place the service reads ZIPs.
 */
function loaded(): Table {
  if (table) return table;
  const lines = readFileSync(zipTablePath, 'utf8').split('\n').filter((l) => l !== '' && !l.startsWith('#'));
  const t: Table = { zip: new Uint32Array(lines.length), lat: new Float64Array(lines.length), lng: new Float64Array(lines.length), state: [], city: [] };
  lines.forEach((line, i) => {
    const [zip = '', lat = '', lng = '', state = '', city = ''] = line.split('\t');
    t.zip[i] = Number(zip);
    t.lat[i] = Number(lat);
    t.lng[i] = Number(lng);
    t.state.push(state);
    t.city.push(city);
  });
  return (table = t);
}

function recordAt(t: Table, i: number): ZipRecord {
  return Object.freeze({ zip: String(t.zip[i]).padStart(5, '0'), lat: t.lat[i]!, lng: t.lng[i]!, state: t.state[i]!, city: t.city[i]! });
}

/** The record of a 5-digit ZIP, or null when the table has none. */
export function zipRecord(zip: string): ZipRecord | null {
  if (!/^\d{5}$/.test(zip)) return null;
  const t = loaded();
  const want = Number(zip);
  let lo = 0, hi = t.zip.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (t.zip[mid]! < want) lo = mid + 1;
    else if (t.zip[mid]! > want) hi = mid - 1;
    else return recordAt(t, mid);
  }
  return null;
}

/** The ZIPs of a city in a state (both matched without regard to case), in ZIP order. */
export function zipsOfCity(city: string, state: string): ZipRecord[] {
  const t = loaded();
  const c = city.toUpperCase(), s = state.toUpperCase();
  const out: ZipRecord[] = [];
  for (let i = 0; i < t.zip.length; i++) if (t.state[i] === s && t.city[i]!.toUpperCase() === c) out.push(recordAt(t, i));
  return out;
}

/** Every ZIP of the table, in ZIP order. */
export function allZips(): ZipRecord[] {
  const t = loaded();
  return Array.from({ length: t.zip.length }, (_, i) => recordAt(t, i));
}
