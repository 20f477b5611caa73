import { afterAll, describe, expect, it } from 'bun:test';
import { chmodSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reportKey } from '../../src/reports/service';
import type { Config } from '../../src/config';
import { facility } from '../helpers';
import { reportWorld as reportWorldOf } from './report-world';
import { tempDir } from '../support/temp-dir';
import { qpdfCheck } from './pdf-tools';
import { fillToTheBrim, mountTmpfs } from '../support/full-disk';

const ROW = facility({ registry_id: '990000000001', fac_name: 'FAILING DISK WORKS (FICTITIOUS)' });
const cleanups: (() => void)[] = [];
afterAll(() => cleanups.reverse().forEach((c) => c()));

const scratch = () => tempDir('report-fail');

/** Mounts a tmpfs at `dir` (root only); false when this machine will not let us. */

/** Whether this process may mount a tmpfs (root, outside a locked-down container): the full-disk case needs it. */
const CAN_MOUNT = mountTmpfs(scratch(), 'size=4k', (u) => cleanups.push(u));

const reportWorld = (dir: string, config?: Partial<Config>) => reportWorldOf(dir, [ROW], config);

/** The cache cannot store, yet the caller gets a good PDF (rendered in memory) and a 200. */
async function expectServedWithoutCache({ exportOf, stats }: Pick<Awaited<ReturnType<typeof reportWorld>>, 'exportOf' | 'stats'>) {
  const errorsBefore = stats().store_errors;
  const r = await exportOf();
  expect(r.status).toBe(200);
  expect(r.type).toBe('application/pdf');
  expect(r.cache).toBe('BYPASS');
  expect(qpdfCheck(r.pdf).ok).toBe(true);
  expect(stats().store_errors - errorsBefore).toBe(1);
}

describe('a cache that cannot be used still answers 200 with the PDF', () => {
  it.skipIf(!CAN_MOUNT)('a full cache filesystem (a 64 KiB tmpfs filled to the brim: ENOSPC; needs root to mount it), and it recovers once space is freed', async () => {
    const dir = scratch();
    expect(mountTmpfs(dir, 'size=64k,mode=0700', (u) => cleanups.push(u))).toBe(true);
    fillToTheBrim(dir); // a temp file's create succeeds, its write then fails with ENOSPC
    const w = await reportWorld(dir, { reportCacheDir: dir, reportCacheMinFreeMb: 0 }); // no floor: the write itself meets the full disk
    const { exportOf, warnings } = w;
    await expectServedWithoutCache(w);
    await expectServedWithoutCache(w);
    expect(warnings().map((w) => w.code)).toEqual(['ENOSPC']); // logged once, not per request
    expect(readdirSync(dir).filter((n) => !n.startsWith('filler-'))).toEqual([]); // no torn temp file left
    for (const n of readdirSync(dir)) rmSync(join(dir, n));
    expect((await exportOf()).cache).toBe('MISS');
    expect((await exportOf()).cache).toBe('HIT');
  });

  it('a file system with less free space than the floor: nothing is stored (X-Cache: BYPASS), counted as low_space, warned once', async () => {
    const dir = scratch();
    const w = await reportWorld(dir, { reportCacheDir: dir, reportCacheMinFreeMb: 1_048_576 }); // a 1 TiB floor: more than this disk has free
    for (let i = 0; i < 2; i++) {
      const r = await w.exportOf();
      expect([r.status, r.cache]).toEqual([200, 'BYPASS']);
      expect(qpdfCheck(r.pdf).ok).toBe(true);
    }
    expect(w.stats()).toMatchObject({ low_space: 2, stores: 0, store_errors: 0 });
    expect(w.warnings().map((l) => l.code)).toEqual(['LOW_SPACE']);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a read-only cache directory (read-only tmpfs as root, mode 0555 otherwise)', async () => {
    const dir = scratch();
    const mounted = mountTmpfs(dir, 'ro,size=64k', (u) => cleanups.push(u));
    if (!mounted) chmodSync(dir, 0o555);
    const w = await reportWorld(dir, { reportCacheDir: dir, reportCacheMinFreeMb: 0 });
    const { warnings } = w;
    await expectServedWithoutCache(w);
    expect(warnings()[0]?.code).toBe(mounted ? 'EROFS' : 'EACCES');
  });

  it.each([
    ['a cache path below a regular file', (d: string) => (writeFileSync(join(d, 'f'), 'x'), join(d, 'f', 'cache'))],
    ['a cache path that is itself a regular file', (d: string) => (writeFileSync(join(d, 'f'), 'x'), join(d, 'f'))],
  ])('%s (ENOTDIR, even for root)', async (_name, setup) => {
    const w = await reportWorld(setup(scratch()));
    const { warnings } = w;
    await expectServedWithoutCache(w);
    expect(warnings()[0]?.code).toBe('ENOTDIR');
  });

  it('an entry name taken by a directory is a read error and a failed store, never a 500', async () => {
    const dir = scratch();
    const w = await reportWorld(dir);
    const { world } = w;
    mkdirSync(join(dir, `${reportKey(ROW, world.deps.index.info)}.pdf`));
    const readErrors = w.stats().read_errors;
    await expectServedWithoutCache(w);
    expect(w.stats().read_errors - readErrors).toBe(1);
  });
});

describe('where the cache lives', () => {
  it('by default under <stateDir>/report-cache', async () => {
    const state = scratch();
    const { exportOf } = await reportWorld(state, { stateDir: state });
    expect((await exportOf()).cache).toBe('MISS');
    expect(readdirSync(join(state, 'report-cache'))).toEqual([expect.stringMatching(/^[0-9a-f]{64}\.pdf$/)]);
  });

  it("'off' renders every time and writes nothing", async () => {
    const state = scratch();
    const { exportOf } = await reportWorld(state, { stateDir: state, reportCacheDir: 'off' });
    expect([(await exportOf()).cache, (await exportOf()).cache]).toEqual(['BYPASS', 'BYPASS']);
    expect(existsSync(join(state, 'report-cache'))).toBe(false);
  });
});

describe('concurrent exports of one facility', () => {
  it('all get a good PDF, and what is left on disk is one valid entry', async () => {
    const dir = scratch();
    // one account's 12 at once: its limit of concurrent renders raised so all are rendered
    const { exportOf } = await reportWorld(dir, { reportCacheDir: dir, heavyPerAccount: 12 });
    const results = await Promise.all(Array.from({ length: 12 }, () => exportOf()));
    for (const r of results) {
      expect(r.status).toBe(200);
      expect(new TextDecoder().decode(r.pdf.subarray(0, 5))).toBe('%PDF-');
    }
    expect(readdirSync(dir)).toEqual([expect.stringMatching(/^[0-9a-f]{64}\.pdf$/)]);
    const after = await exportOf();
    expect(after.cache).toBe('HIT');
    expect(qpdfCheck(after.pdf).ok).toBe(true);
  });
});
