/**
 * The bundled ZIP table (src/address/zip-table.ts) made from the pinned `zipcodes` package: one
 * line per 5-digit US ZIP, `zip TAB lat TAB lng TAB state TAB city`, sorted by ZIP, after a first
 * line naming the package version it came from. Made by `scripts/sample.ts ensure` (so by `npm
 * start`, the test setup and the build); gitignored, like the sample index.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const ROOT = join(import.meta.dir, '..');
export const ZIP_TABLE_PATH = join(ROOT, 'data', 'zip-table.tsv');

type ZipCode = { zip: string; latitude: number; longitude: number; city: string; state: string };

/** Writes data/zip-table.tsv unless it is there and made from the installed package version; returns true when written. */
export function ensureZipTable(): boolean {
  const require = createRequire(import.meta.url);
  const version = (require('zipcodes/package.json') as { version: string }).version;
  const header = `# zipcodes ${version}`;
  if (existsSync(ZIP_TABLE_PATH) && readFileSync(ZIP_TABLE_PATH, 'utf8').startsWith(`${header}\n`)) return false;
  const codes = Object.values((require('zipcodes') as { codes: Record<string, ZipCode> }).codes)
    .filter((c) => /^\d{5}$/.test(c.zip) && Number.isFinite(c.latitude) && Number.isFinite(c.longitude))
    .sort((a, b) => (a.zip < b.zip ? -1 : 1));
  const clean = (s: string) => s.replace(/[\t\n\r]/g, ' ');
  const lines = codes.map((c) => `${c.zip}\t${c.latitude}\t${c.longitude}\t${clean(c.state)}\t${clean(c.city)}`);
  const tmp = `${ZIP_TABLE_PATH}.tmp-${process.pid}`;
  writeFileSync(tmp, `${header}\n${lines.join('\n')}\n`);
  renameSync(tmp, ZIP_TABLE_PATH);
  return true;
}

if (import.meta.main) console.error(ensureZipTable() ? `zip table: wrote ${ZIP_TABLE_PATH}` : 'zip table: current');
