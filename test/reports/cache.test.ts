import { describe, expect, it } from 'bun:test';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FacilityRow } from '../../src/index/model';
import { REPORT_TTL_MS, ReportCache } from '../../src/reports/cache';
import { reportKey } from '../../src/reports/service';
import { VERSION } from '../../src/version';
import { FIXED_NOW, facility, fixedClock } from '../helpers';
import { observed } from '../ops/observed';
import { pdfText, qpdfCheck } from './pdf-tools';
import { reportWorld as reportWorldOf } from './report-world';
import { tempDir } from '../support/temp-dir';

const freshDir = () => tempDir('report-cache');

const ROW = facility({ registry_id: '990000000001', fac_name: 'CACHE TEST WORKS (FICTITIOUS)' });

/** A report world over the one test row unless told otherwise. */
const reportWorld = (dir: string, rows: FacilityRow[] = [ROW]) => reportWorldOf(dir, rows);

const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

describe('report cache over HTTP', () => {
  it('the first export renders (MISS); the second is the same bytes from disk (HIT), and /metrics counts each', async () => {
    const { world, exportOf } = await reportWorld(freshDir());
    const first = await exportOf();
    const second = await exportOf();
    expect([first.res.status, second.res.status]).toEqual([200, 200]);
    expect([first.cache, second.cache]).toEqual(['MISS', 'HIT']);
    expect(same(first.pdf, second.pdf)).toBe(true);
    await observed(world.deps, 2);
    const outcomes = world.deps.metrics.reportCache;
    expect(['MISS', 'HIT', 'BYPASS'].map((outcome) => outcomes.get({ outcome }))).toEqual([1, 1, 0]);
    expect(world.deps.reportCache!.stats.stores).toBe(1);
  });

  it('a cached copy carries the generation time and document ID of the render that made it (documented), and no request ID', async () => {
    const { world, exportOf, entryPath } = await reportWorld(freshDir());
    const first = await exportOf();
    world.clock.advance(60 * 60 * 1000);
    const second = await exportOf();
    expect(second.cache).toBe('HIT');
    expect(second.requestId).not.toBe(first.requestId);
    const text = pdfText(second.pdf);
    // The document ID is the start of the cache entry's name: the same for every caller of this entry.
    const documentId = entryPath().split('/').at(-1)!.slice(0, 16);
    expect(text).toContain(`Document ${documentId}`);
    expect(text).not.toContain(first.requestId);
    expect(text).not.toContain(second.requestId);
    expect(text).toContain('Generated 2026-11-15 12:00 UTC');
  });

  it("a caller-chosen X-Request-Id never reaches the PDF that another account is then served from the cache", async () => {
    const { world, exportOf } = await reportWorld(freshDir());
    const chosen = 'CALLER-CHOSEN-Marker-7f3a';
    const first = await world.call(`/api/v1/facility/${ROW.registry_id}/report`, { method: 'POST', key: (await world.keyFor('platform')).key, headers: { 'x-request-id': chosen } });
    expect(first.status).toBe(200);
    expect(first.headers.get('x-cache')).toBe('MISS');
    expect(first.headers.get('x-request-id')).toBe(chosen);
    expect(pdfText(new Uint8Array(await first.arrayBuffer()))).not.toContain(chosen);
    // Another account (reportWorld's own key), later: the cached copy.
    world.clock.advance(5 * 60 * 1000);
    const second = await exportOf();
    expect(second.cache).toBe('HIT');
    const text = pdfText(second.pdf);
    expect(text).not.toContain(chosen);
    expect(text.toLowerCase()).not.toContain('marker-7f3a');
    expect(text).not.toMatch(/request/i);
  });

  it('is served for 24 hours after the render and rendered afresh from then on', async () => {
    const { world, exportOf } = await reportWorld(freshDir());
    const first = await exportOf();
    world.clock.set(FIXED_NOW + REPORT_TTL_MS - 1);
    expect((await exportOf()).cache).toBe('HIT');
    world.clock.set(FIXED_NOW + REPORT_TTL_MS);
    const expired = await exportOf();
    expect(expired.cache).toBe('MISS');
    expect(same(expired.pdf, first.pdf)).toBe(false);
    expect(pdfText(expired.pdf)).toContain('Generated 2026-11-16 12:00 UTC');
    expect((await exportOf()).cache).toBe('HIT');
  });

  it('a changed score (new score_hash) gets a fresh document, and the old score keeps its own entry', async () => {
    const dir = freshDir();
    const before = await reportWorld(dir, [ROW]);
    await before.exportOf();
    const rescored = facility({ ...ROW, overall_score: 55, penalty_severity: 5, score_hash: 'hash-rescored' });
    const after = await reportWorld(dir, [rescored]);
    const fresh = await after.exportOf();
    expect(fresh.cache).toBe('MISS');
    expect(pdfText(fresh.pdf)).toContain('55 of 100');
    expect((await before.exportOf()).cache).toBe('HIT');
    expect(readdirSync(dir)).toHaveLength(2);
  });

  it('new score inputs with identical points (only score_inputs and score_hash change) get a fresh document', async () => {
    const dir = freshDir();
    const before = await reportWorld(dir, [ROW]);
    const old = await before.exportOf();
    expect(pdfText(old.pdf)).toContain('0 of the last 12');
    // Same name, address, points and flag: only the inputs (three violation quarters) and so the score_hash differ.
    const inputs = { ...ROW.score_inputs, qtrs_with_nc: 3, history: '_________VVV' };
    const rehashed = facility({ ...ROW, score_inputs: inputs, score_hash: 'hash-new-inputs' });
    const after = await reportWorld(dir, [rehashed]);
    const fresh = await after.exportOf();
    expect(fresh.cache).toBe('MISS');
    const text = pdfText(fresh.pdf);
    expect(text).toContain('3 of the last 12');
    expect(text).not.toContain('0 of the last 12');
    expect(text).toContain('Quarters in violation 3 of the last 12');
    expect((await before.exportOf()).cache).toBe('HIT');
    expect(readdirSync(dir)).toHaveLength(2);
  });

  it('a renamed facility with an unchanged score_hash also gets a fresh document (key covers all printed fields)', async () => {
    const dir = freshDir();
    await (await reportWorld(dir, [ROW])).exportOf();
    const renamed = await reportWorld(dir, [facility({ ...ROW, fac_name: 'RENAMED WORKS (FICTITIOUS)' })]);
    const res = await renamed.exportOf();
    expect(res.cache).toBe('MISS');
    expect(pdfText(res.pdf)).toContain('RENAMED WORKS');
  });

  it("a new product version is a new key, so an upgrade that rewords the dossier never serves the old wording; this build's key carries its own version", async () => {
    const { world } = await reportWorld(freshDir());
    const info = world.deps.index.info;
    expect(reportKey(ROW, info, 1, '0.1.0')).not.toBe(reportKey(ROW, info, 1, '0.2.0'));
    expect(reportKey(ROW, info)).toBe(reportKey(ROW, info, 1, VERSION));
  });

  it.each([
    ['truncated to half (a torn write)', (b: Buffer) => b.subarray(0, b.length >> 1)],
    ['one PDF byte flipped', (b: Buffer) => Buffer.from(b.map((x, i) => (i === b.length - 40 ? x ^ 0xff : x)))],
    ['an empty file', () => Buffer.alloc(0)],
    ['garbage without a header', () => Buffer.from('%PDF-1.7 not really\n'.repeat(50))],
    ['a header claiming another key', (b: Buffer) => Buffer.from(b.toString('latin1').replace(/ ([0-9a-f]{64})\n/, ` ${'0'.repeat(64)}\n`), 'latin1')],
  ])('a corrupt entry (%s) is discarded and re-rendered, and the rewrite is good', async (_name, corrupt) => {
    // no memory tier: every hit reads the file, as a process started after the store does
    const dir = freshDir();
    const { world, exportOf, entryPath } = await reportWorldOf(dir, [ROW], { reportCacheDir: dir, reportCacheMemoryMb: 0 });
    await exportOf();
    writeFileSync(entryPath(), corrupt(readFileSync(entryPath())));
    // back to the service clock's time, so the write-path sweep (which reads mtimes) leaves it for get() to judge
    utimesSync(entryPath(), FIXED_NOW / 1000, FIXED_NOW / 1000);
    const again = await exportOf();
    expect(again.res.status).toBe(200);
    expect(again.cache).toBe('MISS');
    expect(qpdfCheck(again.pdf).ok).toBe(true);
    expect(world.deps.reportCache!.stats.corrupt).toBe(1);
    expect((await exportOf()).cache).toBe('HIT');
  });

  it('a deleted cache directory is recreated on the next store', async () => {
    const dir = freshDir();
    const { exportOf } = await reportWorldOf(dir, [ROW], { reportCacheDir: dir, reportCacheMemoryMb: 0 });
    await exportOf();
    rmSync(dir, { recursive: true });
    expect((await exportOf()).cache).toBe('MISS');
    expect((await exportOf()).cache).toBe('HIT');
  });

  it('a hit on a recently used entry is served from memory: its file is not read again, /metrics counts it', async () => {
    const dir = freshDir();
    const { world, exportOf, entryPath } = await reportWorld(dir);
    const first = await exportOf();
    rmSync(entryPath());
    const second = await exportOf();
    expect(second.cache).toBe('HIT');
    expect(same(second.pdf, first.pdf)).toBe(true);
    expect(world.deps.reportCache!.memory.hits).toBe(1);
    const metrics = await (await world.call('/metrics')).text();
    expect(metrics).toContain('fcs_report_cache_memory_hits_total 1');
    expect(metrics).toMatch(new RegExp(`fcs_report_cache_memory_bytes ${first.pdf.length}\\b`));
  });

  it('an entry read back from disk (another process stored it) is then served from memory', async () => {
    const dir = freshDir();
    const first = await (await reportWorld(dir)).exportOf();
    const later = await reportWorld(dir);
    const fromDisk = await later.exportOf();
    expect(fromDisk.cache).toBe('HIT');
    expect(later.world.deps.reportCache!.memory.hits).toBe(0);
    rmSync(later.entryPath());
    const fromMemory = await later.exportOf();
    expect(fromMemory.cache).toBe('HIT');
    expect(same(fromMemory.pdf, first.pdf)).toBe(true);
    expect(later.world.deps.reportCache!.memory.hits).toBe(1);
  });

  it('a memory tier of 0 MiB holds nothing: with the file gone, the next export renders again', async () => {
    const dir = freshDir();
    const { world, exportOf, entryPath } = await reportWorldOf(dir, [ROW], { reportCacheDir: dir, reportCacheMemoryMb: 0 });
    await exportOf();
    rmSync(entryPath());
    expect((await exportOf()).cache).toBe('MISS');
    expect(world.deps.reportCache!.memory.size).toBe(0);
  });

  it('a store leaves exactly one hash-named file and no temp file behind', async () => {
    const dir = freshDir();
    await (await reportWorld(dir)).exportOf();
    expect(readdirSync(dir)).toEqual([expect.stringMatching(/^[0-9a-f]{64}\.pdf$/)]);
  });
});

describe('ReportCache sweeping', () => {
  const key = (n: number) => ReportCache.keyOf([String(n)]);
  const pdf = new TextEncoder().encode('%PDF-1.7 test body');

  it('removes expired entries and temp files abandoned over an hour ago; keeps fresh entries and files it did not write', async () => {
    const dir = freshDir();
    const clock = fixedClock();
    const cache = new ReportCache(dir, clock, () => {});
    await cache.put(key(1), pdf);
    await cache.sweeping;
    clock.advance(REPORT_TTL_MS - 1000);
    await cache.put(key(2), pdf);
    await cache.sweeping;
    writeFileSync(join(dir, `.tmp-${clock() - 2 * 60 * 60 * 1000}-dead`), 'partial');
    writeFileSync(join(dir, `.tmp-${clock() - 60 * 1000}-inflight`), 'partial');
    writeFileSync(join(dir, 'operator-notes.txt'), 'not ours');
    clock.advance(2000);
    expect(await cache.sweep()).toBe(2);
    expect(readdirSync(dir).sort()).toEqual([`.tmp-${clock() - 2000 - 60 * 1000}-inflight`, `${key(2)}.pdf`, 'operator-notes.txt'].sort());
    expect(await cache.get(key(2))).toEqual(pdf);
  });

  it('sweeps on the write path at most every ten minutes, without timers', async () => {
    const dir = freshDir();
    const clock = fixedClock();
    const cache = new ReportCache(dir, clock, () => {});
    await cache.put(key(1), pdf);
    await cache.sweeping;
    clock.advance(REPORT_TTL_MS + 1);
    await cache.put(key(2), pdf);
    await cache.sweeping;
    expect(existsSync(join(dir, `${key(1)}.pdf`))).toBe(false);
    await cache.put(key(3), pdf);
    const started = cache.sweeping;
    clock.advance(60 * 1000);
    await cache.put(key(4), pdf);
    expect(cache.sweeping).toBe(started);
  });

  it('an entry whose file time was touched by someone else still expires by its own header', async () => {
    const dir = freshDir();
    const clock = fixedClock();
    const cache = new ReportCache(dir, clock, () => {});
    await cache.put(key(1), pdf);
    clock.advance(REPORT_TTL_MS);
    const now = clock() / 1000;
    utimesSync(join(dir, `${key(1)}.pdf`), now, now);
    expect(await cache.get(key(1))).toBeNull();
  });

  it('past its size cap the cache deletes its oldest entries down to 90% of the cap, and only its own files', async () => {
    const dir = freshDir();
    const clock = fixedClock();
    const body = new Uint8Array(10_000).fill(37);
    const entrySize = (k: string) => statSync(join(dir, `${k}.pdf`)).size;
    // Room for three entries and a half.
    const probe = new ReportCache(freshDir(), clock, () => {});
    await probe.put(key(0), body);
    const size = statSync(join(probe.dir, `${key(0)}.pdf`)).size;
    const cache = new ReportCache(dir, clock, () => {}, REPORT_TTL_MS, size * 3.5);
    writeFileSync(join(dir, 'operator-notes.txt'), 'x'.repeat(50_000));
    for (let n = 1; n <= 5; n++) {
      clock.advance(1000);
      await cache.put(key(n), body);
      await cache.sweeping;
    }
    expect(entrySize(key(5))).toBe(size);
    // The 4th and the 5th write each took it to 4 entries, over 3.5: each time the oldest went (3 <= 3.15 entries).
    const left = readdirSync(dir).filter((f) => f.endsWith('.pdf')).sort();
    expect(left).toEqual([key(3), key(4), key(5)].map((k) => `${k}.pdf`).sort());
    expect(cache.stats.evicted).toBe(2);
    expect(existsSync(join(dir, 'operator-notes.txt'))).toBe(true);
    expect(await cache.get(key(5))).toEqual(body);
    expect(await cache.get(key(1))).toBeNull();
  });

  it('refuses keys that are not SHA-256 hex, so no caller can name a path', async () => {
    const cache = new ReportCache(freshDir(), fixedClock(), () => {});
    await expect(cache.get('../../etc/passwd')).rejects.toThrow('SHA-256');
    await expect(cache.put('990000000001', pdf)).rejects.toThrow('SHA-256');
  });
});
