import { afterAll, describe, expect, it } from 'bun:test';
import { copyFileSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FacilityIndex } from '../../src/index/facility-index';
import { searchFilePath } from '../../src/index/search-tables/file';
import { cli, startServer, type Service } from '../support/process';
import { tempDir } from '../support/temp-dir';
import { csvText, exporterRow, runIngest, writeFile } from '../ingest/support';

/** 300 fictitious facilities, their search tables in a `.search` file beside the index. */
const ROWS = Array.from({ length: 300 }, (_, i) => exporterRow({ REGISTRY_ID: String(990000001000 + i * 3), FAC_NAME: `RIVER BEND WORKS ${i}`, FAC_CITY: 'HOUSTON' }));

const services: Service[] = [];
afterAll(async () => {
  for (const s of services) await s.stop();
});

const built = (async () => {
  const dir = tempDir('damaged-search');
  const out = join(dir, 'built.sqlite');
  await runIngest([writeFile(dir, 'rows.csv', csvText(ROWS))], out, { asOf: '2026-10-31', searchFileFrom: 0 });
  return out;
})();

/** A copy of the built release at `<dir>/current.sqlite` (index and .search; serve builds the area index itself). */
async function release(dir: string, name = 'current.sqlite'): Promise<string> {
  const from = await built;
  const to = join(dir, name);
  for (const [a, b] of [[from, to], [searchFilePath(from), searchFilePath(to)]] as const) copyFileSync(a, b);
  return to;
}

/** Inverts 2,000 bytes spread over the second half of the file at `path`. */
function flip2000(path: string): void {
  const bytes = readFileSync(path);
  const start = Math.floor(bytes.length / 2);
  const step = Math.max(1, Math.floor((bytes.length - start) / 2000));
  for (let i = 0; i < 2000; i++) bytes[start + i * step] = bytes[start + i * step]! ^ 0xff;
  writeFileSync(path, bytes);
}

describe('a damaged .search file beside the index', () => {
  it('is not attached when opened: the index says so in one sentence and serves without search', async () => {
    const path = await release(tempDir('damaged-search-open'));
    const whole = FacilityIndex.open(path);
    expect([whole.searchDamaged, whole.searchTables]).toEqual([false, `in ${searchFilePath(path)}`]);
    whole.close();
    flip2000(searchFilePath(path));
    const index = FacilityIndex.open(path);
    expect(index.searchDamaged).toBe(true);
    expect(index.searchTables).toBe(`${searchFilePath(path)} is damaged (its bytes do not match the checksum its index records): search unavailable`);
    expect(index.search()).toBeNull();
    index.close();
  });

  it('a serve started on it answers searches 503 and everything else; a SIGHUP to another damaged release is refused in one line while the previous serves on', async () => {
    const dir = tempDir('damaged-search-serve');
    const path = await release(dir);
    const key = cli(['keys', 'create', '--tier', 'platform', '--print-key', '--state-dir', join(dir, 'state')]).stdout.trim();
    const s = await startServer(['--index', path, '--state-dir', join(dir, 'state')]);
    services.push(s);
    const search = () => fetch(`${s.base}/api/v1/search?q=river`, { headers: { 'x-api-key': key } });
    expect((await search()).status).toBe(200);

    // The next release, damaged, put in place by rename as ingest does.
    const next = await release(dir, 'next.sqlite');
    flip2000(searchFilePath(next));
    renameSync(next, path);
    renameSync(searchFilePath(next), searchFilePath(path));
    s.proc.kill('SIGHUP');
    const refused = await s.waitForLine((l) => String(l.msg).startsWith('reload refused'));
    expect(refused.msg).toBe(`reload refused, still serving the previous index: ${searchFilePath(path)} is damaged (its bytes do not match the checksum its index records): search unavailable`);
    expect((await search()).status).toBe(200);

    const fresh = await startServer(['--index', path, '--state-dir', join(dir, 'state-2')]);
    services.push(fresh);
    const key2 = cli(['keys', 'create', '--tier', 'platform', '--print-key', '--state-dir', join(dir, 'state-2')]).stdout.trim();
    const res = await fetch(`${fresh.base}/api/v1/search?q=river`, { headers: { 'x-api-key': key2 } });
    expect(res.status).toBe(503);
    expect(((await res.json()) as any).error.code).toBe('SERVICE_UNAVAILABLE');
    expect(fresh.lines.find((l) => String(l.msg).startsWith('listening'))!.search_tables).toContain('is damaged');
    expect((await fetch(`${fresh.base}/api/v1/facility/${ROWS[0]!.REGISTRY_ID}`, { headers: { 'x-api-key': key2 } })).status).toBe(200);
  }, 90_000);
});
