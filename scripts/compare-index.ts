#!/usr/bin/env bun
/**
 * Content comparison of two built indexes (an ingest change that must not change output):
 *   npx bun run scripts/compare-index.ts A.sqlite B.sqlite
 * For every table of either file: row count and a SHA-256 of `SELECT * ... ORDER BY <every column>`;
 * `index_meta` with `info.built_at` masked (the build clock); the `<index>.rejects.csv` files byte for byte;
 * the `.area` files by their header without the identity (which names the build): each array's CRC-32,
 * the word lists, states and counts. Prints one line per item; exit 1 when anything differs.
 */
import { Database } from 'bun:sqlite';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';

const [a, b] = process.argv.slice(2);
if (!a || !b) {
  console.error('usage: compare-index.ts A.sqlite B.sqlite');
  process.exit(2);
}

type Digest = { rows: number; sha: string };

function tableDigests(path: string): Map<string, Digest> {
  const db = new Database(path, { readonly: true });
  const out = new Map<string, Digest>();
  // a virtual table (the search index in the file) cannot be scanned in order: its shadow tables are compared instead
  const tables = db.query("SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%' ORDER BY name").all() as { name: string }[];
  for (const { name } of tables) {
    const cols = (db.query(`SELECT * FROM "${name}" LIMIT 0`) as unknown as { columnNames: string[] }).columnNames;
    const order = cols.map((_, i) => i + 1).join(', ');
    const h = createHash('sha256');
    let rows = 0;
    for (const row of db.query(`SELECT * FROM "${name}" ORDER BY ${order}`).values() as unknown[][]) {
      let r = row;
      if (name === 'index_meta' && row[0] === 'info') {
        const info = JSON.parse(String(row[1])) as Record<string, unknown>;
        info.built_at = '<masked>';
        r = [row[0], JSON.stringify(info)];
      }
      h.update(JSON.stringify(r, (_, v) => (v instanceof Uint8Array ? Buffer.from(v).toString('hex') : typeof v === 'bigint' ? String(v) : v)));
      h.update('\n');
      rows++;
    }
    out.set(name, { rows, sha: h.digest('hex').slice(0, 16) });
  }
  db.close();
  return out;
}

/** The area file's header (src/index/area/spatial-file.ts) without its identity and array offsets: what its content is. */
function areaDigest(path: string): string {
  if (!existsSync(path)) return 'absent';
  const bytes = readFileSync(path);
  const header = JSON.parse(bytes.subarray(12, 12 + bytes.readUInt32LE(8)).toString()) as Record<string, unknown>;
  delete header.identity;
  delete header.arrays;
  return createHash('sha256').update(JSON.stringify(header)).digest('hex').slice(0, 16);
}

const fileSha = (p: string) => (existsSync(p) ? createHash('sha256').update(readFileSync(p)).digest('hex').slice(0, 16) : 'absent');

let differ = 0;
const da = tableDigests(a), db = tableDigests(b);
for (const name of [...new Set([...da.keys(), ...db.keys()])].sort()) {
  const x = da.get(name), y = db.get(name);
  const same = x !== undefined && y !== undefined && x.rows === y.rows && x.sha === y.sha;
  if (!same) differ++;
  console.log(`${same ? 'same   ' : 'DIFFERS'} table ${name}: ${x ? `${x.rows} rows ${x.sha}` : 'absent'} | ${y ? `${y.rows} rows ${y.sha}` : 'absent'}`);
}
const x = fileSha(a + '.rejects.csv'), y = fileSha(b + '.rejects.csv');
if (x !== y) differ++;
console.log(`${x === y ? 'same   ' : 'DIFFERS'} file *.rejects.csv: ${x} | ${y}`);
const p = areaDigest(a + '.area'), q = areaDigest(b + '.area');
if (p !== q) differ++;
console.log(`${p === q ? 'same   ' : 'DIFFERS'} file *.area (header and array checksums, identity left out): ${p} | ${q}`);
console.log(differ === 0 ? 'identical content' : `${differ} item(s) differ`);
process.exit(differ === 0 ? 0 : 1);
