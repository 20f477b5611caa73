import { afterAll, describe, expect, it } from 'bun:test';
import { chmodSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../../src/config';
import { ASTM_SOURCES_NOT_IN_ECHO } from '../../src/site-report/sources';
import { json, makeWorld, memoryIndex } from '../helpers';
import { rng } from '../area/fixtures';
import { pdfInfo, pdfPages, pdfText, qpdfCheck } from '../reports/pdf-tools';
import { tempDir } from '../support/temp-dir';
import { scatter } from './fixtures';
import { fillToTheBrim, mountTmpfs } from '../support/full-disk';

const SITE = { lat: 29.7604, lng: -95.3698 };
const rows = scatter(rng(11), SITE, 400, 1.8, 990_400_000_000).map((g) => g.row);

async function pdfWorld(config: Partial<Config>) {
  const world = makeWorld({ rows, config });
  const { key } = await world.keyFor('platform');
  const ask = async (body: Record<string, unknown>, accept = 'application/pdf') => {
    const res = await world.call('/api/v1/site-report', { method: 'POST', key, headers: { 'content-type': 'application/json', accept }, body: JSON.stringify(body) });
    return { res, cache: res.headers.get('x-cache'), pdf: new Uint8Array(await res.arrayBuffer()) };
  };
  const report = async (body: Record<string, unknown>) =>
    (await json(await world.call('/api/v1/site-report', { method: 'POST', key, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }))).data;
  return { world, ask, report };
}

describe('the site report as PDF', () => {
  const dir = tempDir('site-report-pdf');
  const w = pdfWorld({ reportCacheDir: dir });
  const body = { ...SITE, zip: '77002', name: 'Riverside parcel' };

  it('Accept: application/pdf answers a PDF attachment that qpdf finds sound', async () => {
    const { res, pdf } = await (await w).ask(body);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="site-report-29.7604_-95.3698.pdf"');
    expect(qpdfCheck(pdf).ok).toBe(true);
    expect(pdfInfo(pdf).Title).toBe('Site report: Riverside parcel');
    expect(pdfPages(pdf)).toBeGreaterThanOrEqual(4);
  });

  it('prints every finding (every one within 1/8 mile among them), the summary, the sources not searched and the disclaimer', async () => {
    const { ask, report } = await w;
    const data = await report(body);
    const text = pdfText((await ask({ ...body, name: 'Riverside parcel (text)' })).pdf);
    const near = data.findings.filter((f: { distance_miles: number }) => f.distance_miles <= 0.125);
    expect(near.length).toBeGreaterThan(5);
    for (const f of data.findings) {
      expect(text).toContain(f.registry_id);
      expect(text).toContain(f.fac_name);
    }
    expect(text).toContain('FICTITIOUS SAMPLE DATA');
    expect(text).toContain('Riverside parcel (text)');
    expect(text).toContain('29.76040° N, 95.36980° W');
    expect(text).toContain('Data as of 2026-11-01');
    expect(text).toContain('SUMMARY: FACILITIES FOUND BY CATEGORY AND DISTANCE');
    expect(text).toContain('RADIUS MAP');
    expect(text).toContain('1/8 mi');
    for (const s of ASTM_SOURCES_NOT_IN_ECHO) expect(text).toContain(s.name.slice(0, 30));
    expect(text).toContain('It is not a Phase I Environmental Site Assessment');
  });

  it('prints a document ID and never the request\'s ID (a cached copy goes to other callers)', async () => {
    const { world } = await w;
    const { key } = await world.keyFor('platform');
    const res = await world.call('/api/v1/site-report?format=pdf', { method: 'POST', key, headers: { 'content-type': 'application/json', 'x-request-id': 'planted-text-42' }, body: JSON.stringify({ lat: 29.77, lng: -95.36 }) });
    const text = pdfText(new Uint8Array(await res.arrayBuffer()));
    expect(res.headers.get('x-request-id')).toBe('planted-text-42');
    expect(text).not.toContain('planted-text-42');
    expect(text).toMatch(/Document [0-9a-f]{16}/);
  });

  it('a ZIP-centre site says APPROXIMATE on the cover', async () => {
    const text = pdfText((await (await w).ask({ address: '1 Nowhere Lane, Houston, TX 77002' })).pdf);
    expect(text).toContain('APPROXIMATE LOCATION');
    expect(text).toContain('ZIP code centre (APPROXIMATE)');
  });

  it('is cached by site, distances and index: the same request is a HIT with the same bytes, other distances a MISS', async () => {
    const { ask } = await w;
    const req = { lat: 29.765, lng: -95.365 };
    const first = await ask(req);
    const again = await ask({ lat: 29.765000001, lng: -95.364999999 });
    const farther = await ask({ ...req, search_distances: { snc: 2 } });
    expect([first.cache, again.cache, farther.cache]).toEqual(['MISS', 'HIT', 'MISS']);
    expect(again.pdf).toEqual(first.pdf);
    expect(readdirSync(dir).filter((n) => n.endsWith('.pdf')).length).toBeGreaterThanOrEqual(2);
  });

  it('?format=pdf works where a client cannot set Accept', async () => {
    const { world } = await w;
    const { key } = await world.keyFor('enterprise');
    const res = await world.call('/api/v1/site-report?format=pdf', { method: 'POST', key, headers: { 'content-type': 'application/json' }, body: JSON.stringify(SITE) });
    expect(res.headers.get('content-type')).toBe('application/pdf');
  });
});

describe('the cache key holds the index identity', () => {
  it('the same site on another build of the index is a MISS in the same cache directory', async () => {
    const dir = tempDir('site-report-identity');
    const a = await pdfWorld({ reportCacheDir: dir });
    const b = makeWorld({ rows, config: { reportCacheDir: dir }, deps: { index: memoryIndex(rows, { dataset_name: 'another build' }) } });
    const { key } = await b.keyFor('platform');
    const askB = async () => (await b.call('/api/v1/site-report?format=pdf', { method: 'POST', key, headers: { 'content-type': 'application/json' }, body: JSON.stringify(SITE) })).headers.get('x-cache');
    expect([(await a.ask(SITE)).cache, (await a.ask(SITE)).cache, await askB(), await askB()]).toEqual(['MISS', 'HIT', 'MISS', 'HIT']);
  });
});

/** Mounts a tmpfs at `dir` (root only); false when this machine will not let us. */
const CAN_MOUNT = mountTmpfs(tempDir('site-report-probe'), 'size=4k', (u) => afterAll(u));

describe('a cache that cannot store still answers the PDF', () => {
  it.skipIf(!CAN_MOUNT)('a full cache filesystem (a 64 KiB tmpfs filled to the brim: ENOSPC; needs root to mount it): BYPASS, and MISS then HIT once space is freed', async () => {
    const dir = tempDir('site-report-full');
    expect(mountTmpfs(dir, 'size=64k,mode=0700', (u) => afterAll(u))).toBe(true);
    fillToTheBrim(dir); // a temp file's create succeeds, its write then fails with ENOSPC
    const { ask } = await pdfWorld({ reportCacheDir: dir, reportCacheMinFreeMb: 0 }); // no floor: the write itself meets the full disk
    const full = await ask(SITE);
    expect([full.res.status, full.cache, qpdfCheck(full.pdf).ok]).toEqual([200, 'BYPASS', true]);
    expect(readdirSync(dir).filter((n) => !n.startsWith('filler-'))).toEqual([]);
    for (const n of readdirSync(dir)) rmSync(join(dir, n));
    expect([(await ask(SITE)).cache, (await ask(SITE)).cache]).toEqual(['MISS', 'HIT']);
  });

  it('a read-only cache directory (a read-only tmpfs as root, mode 0555 otherwise): 200, a sound PDF, X-Cache BYPASS', async () => {
    const dir = tempDir('site-report-ro');
    if (!mountTmpfs(dir, 'ro,size=64k', (u) => afterAll(u))) chmodSync(dir, 0o555);
    const { ask, world } = await pdfWorld({ reportCacheDir: dir, reportCacheMinFreeMb: 0 });
    const r = await ask(SITE);
    expect(r.res.status).toBe(200);
    expect(r.cache).toBe('BYPASS');
    expect(qpdfCheck(r.pdf).ok).toBe(true);
    expect(world.deps.reportCache!.stats.store_errors).toBe(1);
    expect((await ask(SITE)).cache).toBe('BYPASS');
  });

  it('no cache configured (off): BYPASS every time', async () => {
    const { ask } = await pdfWorld({ reportCacheDir: 'off' });
    expect([(await ask(SITE)).cache, (await ask(SITE)).cache]).toEqual(['BYPASS', 'BYPASS']);
  });
});
