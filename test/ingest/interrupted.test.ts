import { describe, expect, it } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { exporterLines } from '../../scripts/synth/generator';
import { FacilityIndex } from '../../src/index/facility-index';
import { csvText, exporterRow, runIngest, writeFile } from './support';
import { tempDir } from '../support/temp-dir';

const MAIN = join(import.meta.dir, '..', '..', 'src', 'main.ts');

describe('an interrupted ingest (a real process, killed mid-build)', () => {
  it('exits 130, removes its temp files and leaves the old index byte for byte', async () => {
    const dir = tempDir('ingest');
    const out = join(dir, 'index.sqlite');
    await runIngest([writeFile(dir, 'old.csv', csvText([exporterRow()]))], out);
    const before = readFileSync(out);
    const big = writeFile(dir, 'big.csv', [...exporterLines({ seed: 'interrupt', rows: 150_000, asOf: '2026-10-31' })].join('\r\n'));
    const proc = Bun.spawn([process.execPath, 'run', MAIN, 'ingest', big, '--out', out], { stdout: 'ignore', stderr: 'pipe' });
    // wait until the build is under way (its temp file exists: named by the pid of the process
    // building), then interrupt the command
    const building = () => readdirSync(dir).some((f) => f.startsWith('index.sqlite.tmp-'));
    for (let i = 0; i < 600 && !building(); i++) await Bun.sleep(25);
    expect(building()).toBe(true);
    await Bun.sleep(300);
    proc.kill('SIGTERM');
    expect(await proc.exited).toBe(130);
    expect(await new Response(proc.stderr).text()).toContain('previous index (if any) is unchanged');
    expect(readFileSync(out).equals(before)).toBe(true);
    expect(FacilityIndex.open(out).info.facility_count).toBe(1);
    expect(readdirSync(dir).filter((f) => f.includes('.tmp-'))).toEqual([]);
  }, 60_000);
});
