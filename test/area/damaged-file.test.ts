import { afterAll, describe, expect, it } from 'bun:test';
import { Database } from 'bun:sqlite';
import { copyFileSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SAMPLE } from '../../scripts/sample';
import { spatialFilePath } from '../../src/index/area/spatial-file';
import { cli, startServer, type Service } from '../support/process';
import { tempDir } from '../support/temp-dir';

/**
 * A real `serve` over a copy of the sample index whose `.area` file has 2,000 bytes flipped: the
 * file is refused for its checksum (one log line) and the area search answers from the index
 * itself, never from the damaged bytes.
 */
const services: Service[] = [];
afterAll(async () => {
  for (const s of services) await s.stop();
});

/** Writes a copy of `from` with 2,000 bytes inverted across its second half (its arrays) to `to`. */
function damagedCopy(from: string, to: string): void {
  const bytes = readFileSync(from);
  const start = Math.floor(bytes.length / 2);
  const step = Math.floor((bytes.length - start) / 2000);
  for (let i = 0; i < 2000; i++) bytes[start + i * step] = bytes[start + i * step]! ^ 0xff;
  writeFileSync(to, bytes);
}

function sampleCopy() {
  const dir = tempDir('damaged-area');
  const index = join(dir, 'current.sqlite');
  copyFileSync(SAMPLE.index, index);
  copyFileSync(spatialFilePath(SAMPLE.index), spatialFilePath(index));
  const key = cli(['keys', 'create', '--tier', 'platform', '--print-key', '--state-dir', join(dir, 'state')]).stdout.trim();
  return { dir, index, key };
}

// The truth, from the index's own table: every facility within 25 miles of a sample facility, by name.
const sample = new Database(SAMPLE.index, { readonly: true });
const CENTER = sample.query<{ lat: number; lng: number }, []>('SELECT lat, lng FROM facility WHERE lat IS NOT NULL ORDER BY registry_id LIMIT 1').get()!;
const NAMES = new Map(sample.query<{ registry_id: string; fac_name: string }, []>('SELECT registry_id, fac_name FROM facility').all().map((r) => [r.registry_id, r.fac_name]));

async function areaAnswer(s: Service, key: string) {
  await s.waitForLine((l) => String(l.msg).startsWith('area spatial index ready'), 60_000);
  const res = await fetch(`${s.base}/api/v1/area?lat=${CENTER.lat}&lng=${CENTER.lng}&radius_miles=25&limit=100`, { headers: { 'x-api-key': key } });
  expect(res.status).toBe(200);
  return ((await res.json()) as any).data as { total: number; facilities: { registry_id: string; fac_name: string }[] };
}

describe('a damaged .area file beside the index', () => {
  it('is refused at start for its checksum, in one log line, and the area search answers from the index', async () => {
    const { dir, index, key } = sampleCopy();
    damagedCopy(spatialFilePath(SAMPLE.index), spatialFilePath(index));
    const s = await startServer(['--index', index, '--state-dir', join(dir, 'state')]);
    services.push(s);
    const area = await areaAnswer(s, key);
    expect(area.total).toBeGreaterThan(0);
    for (const f of area.facilities) expect(f.fac_name).toBe(NAMES.get(f.registry_id)!);
    const refused = s.lines.filter((l) => String(l.msg).includes('fails its checksum'));
    expect(refused).toHaveLength(1);
    expect(refused[0]!.msg).toMatch(/not used \(damaged: array \w+ fails its checksum\)/);
  }, 90_000);

  it('met on SIGHUP: the previous release serves meanwhile, one log line names it, and the reloaded index answers right', async () => {
    const { dir, index, key } = sampleCopy();
    const s = await startServer(['--index', index, '--state-dir', join(dir, 'state')]);
    services.push(s);
    const before = await areaAnswer(s, key);
    // The release is replaced by rename, as ingest does: the mapping of the serving file stays intact.
    damagedCopy(spatialFilePath(SAMPLE.index), `${spatialFilePath(index)}.new`);
    renameSync(`${spatialFilePath(index)}.new`, spatialFilePath(index));
    s.proc.kill('SIGHUP');
    await s.waitForLine((l) => l.msg === 'index reloaded', 60_000);
    expect(s.lines.filter((l) => String(l.msg).includes('fails its checksum'))).toHaveLength(1);
    const after = await areaAnswer(s, key);
    expect(after).toEqual(before);
  }, 90_000);
});
