import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FacilityRow } from '../../src/index/model';
import { facility } from '../helpers';

/**
 * The real addresses of `shared/data/frs_naics_32591.csv` (EPA Facility Registry Service, NAICS 32591)
 * as index rows. These are real facilities, so the rows keep ONLY their real street, city, state, ZIP
 * and coordinates: IDs are fictitious (99 + row number), names are "FRS ADDRESS FIXTURE n", and
 * scores are the helpers' clean defaults. No real name is ever paired with a score here.
 */
export type FrsAddress = { id: string; street: string; city: string; state: string; zip: string; stdStreet: string; lat: number; lng: number };

// A byte-for-byte copy (gzipped) of the shared EPA file, so the suite runs without shared/ beside the clone.
const CSV_PATH = join(import.meta.dir, 'fixtures', 'frs_naics_32591.csv.gz');

function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c !== '"') field += c;
      else if (text[i + 1] === '"') (field += '"'), i++;
      else quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === ',') row.push(field), (field = '');
    else if (c === '\n') row.push(field), rows.push(row), (row = []), (field = '');
    else if (c !== '\r') field += c;
  }
  if (field !== '' || row.length > 0) row.push(field), rows.push(row);
  return rows;
}

/** One entry per real registry ID (the file has one row per facility x program). */
export function frsAddresses(path = CSV_PATH): FrsAddress[] {
  const [header, ...rows] = parseCsv(new TextDecoder().decode(Bun.gunzipSync(readFileSync(path))));
  const col = (name: string) => header!.indexOf(name);
  const [id, street, city, state, zip, std, lat, lng] = ['REGISTRY_ID', 'LOCATION_ADDRESS', 'CITY_NAME', 'STATE_CODE', 'POSTAL_CODE', 'STD_LOC_ADDRESS', 'LATITUDE83', 'LONGITUDE83'].map(col);
  const seen = new Set<string>();
  const out: FrsAddress[] = [];
  for (const r of rows) {
    if (r.length < header!.length || seen.has(r[id!]!)) continue;
    seen.add(r[id!]!);
    out.push({
      id: `99${String(out.length + 1).padStart(10, '0')}`,
      street: r[street!]!,
      city: r[city!]!,
      state: r[state!]!,
      zip: r[zip!]!,
      stdStreet: r[std!]!,
      lat: Number(r[lat!]) || 0,
      lng: Number(r[lng!]) || 0,
    });
  }
  return out;
}

export function frsRows(addresses: FrsAddress[]): FacilityRow[] {
  return addresses.map((a, i) =>
    facility({ registry_id: a.id, fac_name: `FRS ADDRESS FIXTURE ${i + 1}`, fac_street: a.street, fac_city: a.city, fac_state: a.state, fac_zip: a.zip, lat: a.lat, lng: a.lng }),
  );
}
