import { afterAll, describe, expect, it } from 'bun:test';
import { Database } from 'bun:sqlite';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exporterLines } from '../../../scripts/synth/generator';
import { SAMPLE } from '../../../scripts/sample';
import { readColumnsFile, writeColumnsFile } from '../../../src/index/area/spatial-columns-file';
import { SpatialCollector } from '../../../src/index/area/spatial-collector';
import { spatialFilePath } from '../../../src/index/area/spatial-file';
import { layoutInChildProcess } from '../../../src/index/area/spatial-layout-process';
import { FacilityIndex } from '../../../src/index/facility-index';
import type { IngestCompanion } from '../../../src/ingest/ingest';
import type { IndexInfo } from '../../../src/index/model';
import { csvText, exporterRow, runIngest, writeFile } from '../../ingest/support';
import { removeTempDirs, tempDir } from '../../support/temp-dir';
import type { IndexRow } from '../../../src/index/index-row';
import { declaredValuesOf } from '../../../src/index/declared-columns';

// Releases of thousands of rows: removed when the file is done, not left for the next run.
afterAll(removeTempDirs);

/** The facility columns ingest's companions read, and the stored evidence the declared fields kept in it are derived from. */
const COMPANION_COLUMNS = 'registry_id, fac_name, fac_street, fac_city, fac_state, fac_zip, lat, lng, fac_naics, overall_score, active_enforcement, site_facts, loc_accuracy_m, loc_method, evidence';
type CompanionRow = Pick<IndexRow, 'registry_id' | 'fac_name' | 'fac_street' | 'fac_city' | 'fac_state' | 'fac_zip' | 'lat' | 'lng' | 'fac_naics' | 'overall_score' | 'active_enforcement' | 'site_facts' | 'loc_accuracy_m' | 'loc_method'>;
/** A companion row as ingest hands it over (what the companions skip left empty). */
const indexRow = (r: CompanionRow): IndexRow => ({
  ...r, baseline: 0, violation_frequency: 0, penalty_severity: 0, recency: 0, repeat_offender: 0, score_hash: '', score_inputs_json: '', detail: '', evidence_json: '', completeness: 0,
});

/** Lays out the same rows with the same metadata through `where`; returns the area file's bytes. */
async function areaBytes(rows: IndexRow[], info: IndexInfo, where: ConstructorParameters<typeof SpatialCollector>[0], dir: string): Promise<Buffer> {
  const c = new SpatialCollector(where);
  for (const r of rows) c.add(r);
  const p = await c.prepareBeside(join(dir, `${where === 'in-process' ? 'here' : 'child'}.sqlite`), info);
  return readFileSync(p.tmpPath);
}

describe('the area layout in a child process', () => {
  it('writes the bundled sample\'s area file byte for byte as the in-process layout does', async () => {
    const dir = tempDir('area-child');
    const db = new Database(SAMPLE.index, { readonly: true });
    const info = JSON.parse((db.query("SELECT value FROM index_meta WHERE key = 'info'").get() as { value: string }).value) as IndexInfo;
    const rows = (db.query(`SELECT ${COMPANION_COLUMNS} FROM facility ORDER BY registry_id`).all() as (CompanionRow & { evidence: string | null })[]).map((r) =>
      indexRow({ ...r, ...declaredValuesOf(r, JSON.parse(r.evidence ?? '{}'), info.as_of) }),
    );
    db.close();
    const child = await areaBytes(rows, info, {}, dir);
    expect(child.equals(await areaBytes(rows, info, 'in-process', dir))).toBe(true);
    // and the sample's own file (built by scripts/sample.ts, the child path too) is that file
    expect(child.equals(readFileSync(spatialFilePath(SAMPLE.index)))).toBe(true);
  }, 60_000);

  it('gives a release of 8,000 generated rows the same area file as the in-process layout, and leaves no temp file', async () => {
    const dir = tempDir('area-child');
    const csv = writeFile(dir, 'generated.csv', [...exporterLines({ seed: 'layout-child', rows: 8000, asOf: '2026-10-31' })].join('\n'));
    const out = join(dir, 'release.sqlite');
    const reference = new SpatialCollector('in-process');
    const tee: IngestCompanion = { add: (r) => reference.add(r), prepareBeside: (_path, info) => reference.prepareBeside(join(dir, 'reference.sqlite'), info) };
    const { summary } = await runIngest([csv], out, { companions: [new SpatialCollector(), tee], inline: true });
    expect(summary.info.facility_count).toBeGreaterThan(7900);
    expect(readFileSync(spatialFilePath(out)).equals(readFileSync(join(dir, 'reference.sqlite.area')))).toBe(true);
    expect(readdirSync(dir).filter((f) => f.includes('.tmp-'))).toEqual([]);
  }, 60_000);

  it('keeps the collected columns through their temp file exactly, IDs that are not 12 digits included', () => {
    const dir = tempDir('area-child');
    const c = new SpatialCollector();
    const ids = ['990000000003', 'A-1', '990000000001', '7'];
    ids.forEach((id, i) => c.add(indexRow({ registry_id: id, fac_name: `NAME ${i} É`, fac_street: `${i} MAIN ST`, fac_city: 'TOWN', fac_state: i % 2 ? 'TX' : 'GU', fac_zip: `7700${i}`, lat: 29 + i, lng: -95 - i, fac_naics: '', overall_score: 40 + i, active_enforcement: (i % 2) as 0 | 1, site_facts: 1 << i, loc_accuracy_m: i === 1 ? 3000 : null, loc_method: i === 1 ? 'ZIP CODE-CENTROID' : '' })));
    const cols = c.columns();
    writeColumnsFile(join(dir, 'cols'), cols);
    const back = readColumnsFile(join(dir, 'cols'));
    expect(back.count).toBe(4);
    for (const k of ['lat', 'lng', 'score', 'flags', 'site', 'state', 'locAccuracy', 'locMethod', 'idNum', 'idLen'] as const) expect(Array.from(back[k])).toEqual(Array.from(cols[k].subarray(0, 4)));
    expect(back.methods).toEqual(['', 'ZIP CODE-CENTROID']);
    expect(back.idOther).toEqual(cols.idOther);
    expect(back.states).toEqual(cols.states);
    expect(Buffer.from(back.nameBytes).equals(Buffer.from(cols.nameBytes.subarray(0, cols.nameStart[4]!)))).toBe(true);
    expect(Buffer.from(back.addrBytes).equals(Buffer.from(cols.addrBytes.subarray(0, cols.addrStart[4]!)))).toBe(true);
    expect(Array.from(back.site).sort((a, b) => a - b)).toEqual([1, 2, 4, 8]);
  });
});

describe('a layout process that fails', () => {
  it('fails with its own last line and leaves no output when its input is not a columns file', async () => {
    const dir = tempDir('area-child');
    const columnsPath = writeFile(dir, 'garbage.columns', 'not columns at all');
    const outPath = join(dir, 'out.area.tmp-1');
    const error = await layoutInChildProcess({ columnsPath, outPath, identity: 'x' }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/^the area index could not be laid out: its process \(pid \d+\) exited with code 1: .*is not a columns file$/);
    expect(existsSync(outPath)).toBe(false);
  }, 30_000);

  const failing: [string, string[], RegExp][] = [
    ['exits with an error', [process.execPath, '-e', 'console.error("ENOSPC: no space left on device"); process.exit(3)'], /exited with code 3: ENOSPC: no space left on device;/],
    ['is killed', ['sh', '-c', 'kill -9 $$'], /was killed by SIGKILL;/],
    ['writes half a file, then dies', ['sh', '-c', 'printf FCSAREA1 > "$2"; exit 1'], /exited with code 1;/],
    ['cannot start', [join(tempDir('area-child'), 'no-such-program')], /its process did not start/],
  ];
  it.each(failing)('that %s fails the ingest with one line, puts nothing in place and leaves the previous release as it was', async (_name, command, message) => {
    const dir = tempDir('area-child');
    const out = join(dir, 'index.sqlite');
    const oldCsv = writeFile(dir, 'old.csv', csvText([exporterRow()]));
    await runIngest([oldCsv], out, { companions: [new SpatialCollector()], inline: true });
    const before = [readFileSync(out), readFileSync(spatialFilePath(out)), readFileSync(`${out}.rejects.csv`)];
    const rows = Array.from({ length: 30 }, (_, i) => exporterRow({ REGISTRY_ID: String(990000000100 + i), FAC_LAT: (29.5 + i * 0.01).toFixed(4) }));
    const csv = writeFile(dir, 'new.csv', csvText(rows));

    const error = await runIngest([csv], out, { companions: [new SpatialCollector({ command })], inline: true }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    const text = (error as Error).message;
    expect(text).toMatch(/^the area index could not be laid out: /);
    expect(text).toMatch(message);
    expect(text).toContain('nothing was put in place');
    expect(text).not.toContain('\n');
    expect([readFileSync(out), readFileSync(spatialFilePath(out)), readFileSync(`${out}.rejects.csv`)]).toEqual(before);
    expect(FacilityIndex.open(out).info.facility_count).toBe(1);
    expect(readdirSync(dir).filter((f) => f.includes('.tmp-'))).toEqual([]);
  }, 30_000);

  it('on a first build leaves no index and no area file at all', async () => {
    const dir = tempDir('area-child');
    const out = join(dir, 'index.sqlite');
    const csv = writeFile(dir, 'new.csv', csvText([exporterRow()]));
    const command = [process.execPath, '-e', 'process.exit(1)'];
    await expect(runIngest([csv], out, { companions: [new SpatialCollector({ command })], inline: true })).rejects.toThrow('could not be laid out');
    expect(readdirSync(dir).sort()).toEqual(['new.csv']);
  }, 30_000);
});

it('the CLI prints a failed layout as one line and exits 1', async () => {
  // The real binary path is exercised by test/binary; here the CLI's handling of the error: a
  // layout process is made to fail by a columns file that is not one (the hidden subcommand itself).
  const dir = tempDir('area-child');
  writeFileSync(join(dir, 'bad.columns'), 'nope');
  const main = join(import.meta.dir, '..', '..', '..', 'src', 'main.ts');
  const proc = Bun.spawn([process.execPath, main, '__layout-area', join(dir, 'bad.columns'), join(dir, 'out.area'), 'id'], { stdout: 'pipe', stderr: 'pipe' });
  expect(await proc.exited).toBe(1);
  const err = (await new Response(proc.stderr).text()).trim();
  expect(err.split('\n')).toHaveLength(1);
  expect(err).toMatch(/^facility-score __layout-area: .*is not a columns file$/);
  expect(existsSync(join(dir, 'out.area'))).toBe(false);
}, 30_000);
