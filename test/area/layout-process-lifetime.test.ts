import { afterAll, describe, expect, it } from 'bun:test';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { exporterLines } from '../../scripts/synth/generator';
import { endOfPoints } from '../../src/area/layout-stream';
import { SpatialCollector } from '../../src/area/spatial-collector';
import { spatialFilePath } from '../../src/area/spatial-file';
import { FacilityIndex } from '../../src/index/facility-index';
import type { IndexInfo } from '../../src/index/model';
import { csvText, exporterRow, runIngest, writeFile } from '../index/ingest/support';
import { childrenOf, isAlive, waitFor, waitGone } from '../support/child-processes';
import { MAIN } from '../support/process';
import { removeTempDirs, tempDir } from '../support/temp-dir';

afterAll(removeTempDirs);

/** A facility row as ingest hands it to the collector (EncodedRow order, site facts at 21). */
const row = (i: number) =>
  [String(990000000000 + ((i * 7919) % 1_000_000)), `FACILITY ${i}`, `${i} MAIN ST`, 'TOWN', i % 3 ? 'TX' : 'LA', '77002', 29 + (i % 500) / 100, -95 - (i % 700) / 100, '', i % 101, i % 2, ...Array<null>(10).fill(null), i % 16] as unknown as Parameters<SpatialCollector['add']>[0];

const INFO = { as_of: '2026-10-31', score_version: 'x', dataset_name: 'lifetime', facility_count: 0, facilities_without_location: 0, fictitious: true, built_at: '2026-11-01T00:00:00.000Z', sources: [], row_counts: {} } as IndexInfo;

describe('a layout process that dies during the load', () => {
  it('takes the points written after its death without harm, and prepareBeside reports the death in one line', async () => {
    const dir = tempDir('area-life');
    const c = new SpatialCollector();
    let i = 0;
    for (; i < 3000; i++) c.add(row(i));
    const pid = c.layoutPid!;
    expect(isAlive(pid)).toBe(true);
    process.kill(pid, 'SIGKILL');
    // written before and after this process has seen the death: a broken pipe must not escape
    for (; i < 13_000; i++) c.add(row(i));
    expect(await waitGone(pid, 5000)).toBe(true);
    await Bun.sleep(50);
    for (; i < 25_000; i++) c.add(row(i));
    await c.ready();
    const error = await c.prepareBeside(join(dir, 'index.sqlite'), INFO).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe(`the area index could not be laid out: its process (pid ${pid}) was killed by SIGKILL`);
    expect(readdirSync(dir)).toEqual([]);
  }, 30_000);

  it('killed mid-load, fails the ingest (the CLI, a real process) with one line, leaves no temp file and the previous release as it was', async () => {
    const dir = tempDir('area-life');
    const out = join(dir, 'index.sqlite');
    await runIngest([writeFile(dir, 'old.csv', csvText([exporterRow()]))], out, { companions: [new SpatialCollector()], inline: true });
    const before = [readFileSync(out), readFileSync(spatialFilePath(out)), readFileSync(`${out}.rejects.csv`)];
    const big = writeFile(dir, 'big.csv', [...exporterLines({ seed: 'layout-killed', rows: 150_000, asOf: '2026-10-31' })].join('\n'));
    const proc = Bun.spawn([process.execPath, 'run', MAIN, 'ingest', big, '--out', out, '--as-of', '2026-11-30'], { stdout: 'ignore', stderr: 'pipe' });
    const [child] = await waitFor(() => childrenOf(proc.pid, '__layout-area'), 30_000);
    expect(child).toBeNumber();
    // mid-load: the ingest is running and its index is still under its temp name
    expect(proc.exitCode).toBeNull();
    expect(existsSync(`${out}.tmp-${proc.pid}`)).toBe(true);
    process.kill(child!, 'SIGKILL');
    expect(await proc.exited).toBe(1);
    const lines = (await new Response(proc.stderr).text()).split('\n').filter((l) => l.trim() && !l.startsWith('ingest: '));
    expect(lines).toEqual([
      `facility-score ingest: the area index could not be laid out: its process (pid ${child}) was killed by SIGKILL; nothing was put in place (the previous index at ${out}, if any, is unchanged)`,
    ]);
    expect([readFileSync(out), readFileSync(spatialFilePath(out)), readFileSync(`${out}.rejects.csv`)]).toEqual(before);
    expect(FacilityIndex.open(out).info.facility_count).toBe(1);
    expect(readdirSync(dir).filter((f) => f.includes('.tmp-'))).toEqual([]);
  }, 120_000);
});

describe('no layout process outlives its ingest', () => {
  it('an ingest that fails mid-load stops the layout process it started', async () => {
    const dir = tempDir('area-life');
    const good = writeFile(dir, 'good.csv', csvText(Array.from({ length: 3000 }, (_, i) => exporterRow({ REGISTRY_ID: String(990000100000 + i) }))));
    const bad = writeFile(dir, 'bad.csv', 'not,an,exporter,file\n1,2,3,4\n');
    const collector = new SpatialCollector();
    let aliveDuringLoad = false;
    const error = await runIngest([good, bad], join(dir, 'index.sqlite'), {
      asOf: '2026-10-31',
      inline: true,
      companions: [{ add: (r) => (collector.add(r), (aliveDuringLoad ||= isAlive(collector.layoutPid!))), ready: () => collector.ready(), prepareBeside: (p, info) => collector.prepareBeside(p, info), abort: () => collector.abort() }],
    }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain('bad.csv');
    expect(aliveDuringLoad).toBe(true);
    expect(isAlive(collector.layoutPid!)).toBe(false);
    expect(readdirSync(dir).sort()).toEqual(['bad.csv', 'good.csv']);
  }, 30_000);

  it.each([
    ['its points end without their end (the ingest failed or died)', (dir: string) => new Float64Array([29.7, -95.3, 30.1, -94.2]), /ended without its end/],
    ['the columns file is not there (removed by an interrupted ingest)', (dir: string) => endOfPoints(0, { columnsPath: join(dir, 'gone.columns'), outPath: join(dir, 'out.area'), identity: 'id' }), /no columns file at/],
  ])('a layout process exits, writing nothing, when %s', async (_name, input, message) => {
    const dir = tempDir('area-life');
    const proc = Bun.spawn([process.execPath, MAIN, '__layout-area'], { stdin: 'pipe', stdout: 'ignore', stderr: 'pipe' });
    proc.stdin.write(input(dir));
    await proc.stdin.end();
    expect(await proc.exited).toBe(1);
    expect((await new Response(proc.stderr).text()).trim()).toMatch(message);
    expect(readdirSync(dir)).toEqual([]);
  }, 30_000);
});
