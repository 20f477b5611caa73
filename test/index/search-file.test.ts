import { describe, expect, it } from 'bun:test';
import { copyFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Database } from 'bun:sqlite';
import { FacilityIndex } from '../../src/index/facility-index';
import { searchFilePath } from '../../src/index/search-tables/file';
import { BUCKET } from '../../src/index/search-tables/docids';
import { json, makeWorld } from '../helpers';
import { tempDir } from '../support/temp-dir';
import { csvText, exporterRow, runIngest, writeFile } from '../ingest/support';
import { SearchBuild } from '../../src/index/search-tables/build';
import { IndexWriter } from '../../src/index/index-writer';
import { facility } from '../helpers';
import { indexRowOf } from '../support/index-row';

const NAMES = ['ACME PLATING', 'RIVER BEND WORKS', 'GULF COAST REFINING', 'OAK MILL', 'QUORVEX AUTO REPAIR', 'ELKHART TRUCK WASH', 'RIVERSIDE PLANT'];
const CITIES = ['ELKHART', 'HOUSTON', 'RIVERSIDE', 'AKRON', 'SPRINGFIELD'];

/** 300 fictitious facilities in registry-ID order, with scores in several buckets (quarters in violation 0-3). */
const ROWS = Array.from({ length: 300 }, (_, i) => {
  const q = i % 4;
  return exporterRow({
    REGISTRY_ID: String(990000001000 + i * 3),
    FAC_NAME: `${NAMES[i % NAMES.length]} ${i}`,
    FAC_STREET: `${100 + i} ${NAMES[(i * 5) % NAMES.length]!.split(' ')[0]} RD`,
    FAC_CITY: CITIES[i % CITIES.length],
    FAC_QTRS_WITH_NC: String(q),
    FAC_3YR_COMPLIANCE_HISTORY: 'V'.repeat(q) + '_'.repeat(12 - q),
    FAC_COMPLIANCE_STATUS: q ? 'Violation Identified' : 'No Violation Identified',
  });
});
const QUERIES = ['q=acme', 'q=riv&limit=7', 'q=riv&sort=score&limit=100', 'q=plat%20elkh', 'q=gulf%20coast&state=TX', 'q=oak&min_score=50&sort=score'];

async function builds() {
  const dir = tempDir('search-file');
  const sorted = writeFile(dir, 'sorted.csv', csvText(ROWS));
  const reversed = writeFile(dir, 'reversed.csv', csvText([...ROWS].reverse()));
  const single = await runIngest([sorted], join(dir, 'single.sqlite'), { asOf: '2026-10-31' });
  const split = await runIngest([sorted], join(dir, 'split.sqlite'), { asOf: '2026-10-31', searchFileFrom: 0 });
  const unsorted = await runIngest([reversed], join(dir, 'unsorted.sqlite'), { asOf: '2026-10-31', searchFileFrom: 0 });
  return { dir, single, split, unsorted };
}
const built = builds();

/** Every query's status and pages (followed by their cursors, up to four), as facility lists: what a client sees. */
async function answers(indexPath: string): Promise<unknown[]> {
  const world = makeWorld({ deps: { index: FacilityIndex.open(indexPath) } });
  const { key } = await world.keyFor('starter');
  const out: unknown[] = [];
  for (const q of QUERIES) {
    const pages: unknown[] = [];
    let cursor: string | null = null;
    do {
      const res = await world.call(`/api/v1/search?${q}${cursor ? `&cursor=${cursor}` : ''}`, { key });
      const body = await json(res);
      // cursors are sealed with the index file's identity (built_at differs between builds): not compared
      pages.push([res.status, body.data?.facilities ?? body.error?.code]);
      cursor = body.data?.next_cursor ?? null;
    } while (cursor && pages.length < 4);
    out.push([q, pages]);
  }
  return out;
}

describe('a large input gets its search tables in a file of their own, built during the load', () => {
  it('writes <index>.search beside the index, which then has no search tables of its own, and says so', async () => {
    const { dir, split, single } = await built;
    expect(split.summary.search).toMatchObject({ file: true });
    expect(single.summary.search).toMatchObject({ file: false, why: 'an input under 64 MB' });
    const path = join(dir, 'split.sqlite');
    expect(existsSync(searchFilePath(path))).toBe(true);
    expect(existsSync(searchFilePath(join(dir, 'single.sqlite')))).toBe(false);
    const own = new Database(path, { readonly: true });
    expect(own.query("SELECT name FROM sqlite_master WHERE name IN ('facility_search', 'search_doc')").all()).toEqual([]);
    own.close();
    expect(readdirSync(dir).filter((f) => f.includes('.tmp-'))).toEqual([]);
    // what serve's start and reload lines say
    expect(FacilityIndex.open(path).searchTables).toBe(`in ${searchFilePath(path)}`);
    expect(FacilityIndex.open(join(dir, 'single.sqlite')).searchTables).toBe('in the index');
  });

  it('answers every search exactly as the index with the tables inside, pages included', async () => {
    const { dir } = await built;
    const [a, b] = [await answers(join(dir, 'single.sqlite')), await answers(join(dir, 'split.sqlite'))];
    expect(b).toEqual(a);
    const riv = a[1] as [string, [number, unknown[]][]];
    expect(riv[1].length).toBe(4); // 'riv' with limit 7: several pages
    expect(riv[1].every(([status, page]) => status === 200 && page.length === 7)).toBe(true);
  });

  it('holds the same search rows, docid for docid (score * 2^32 + rank within the score), and passes FTS5 integrity-check', async () => {
    const { dir } = await built;
    const rows = (p: string) => new Database(p, { readonly: true }).query('SELECT * FROM search_doc ORDER BY docid').all() as { docid: number; overall_score: number }[];
    const inside = rows(join(dir, 'single.sqlite'));
    expect(rows(searchFilePath(join(dir, 'split.sqlite')))).toEqual(inside);
    expect(new Set(inside.map((r) => r.overall_score)).size).toBeGreaterThan(1);
    for (const r of inside) expect(Math.floor(r.docid / BUCKET)).toBe(r.overall_score);
    copyFileSync(searchFilePath(join(dir, 'split.sqlite')), join(dir, 'check.search')); // the served copy is locked by the readers above
    const search = new Database(join(dir, 'check.search'));
    expect(() => search.exec(`INSERT INTO facility_search(facility_search) VALUES ('integrity-check')`)).not.toThrow();
    search.close();
  });

  it('a file not in registry-ID order gets its tables in the index after the load instead, with the same answers', async () => {
    const { dir, unsorted } = await built;
    expect(unsorted.summary.search).toMatchObject({ file: false, why: expect.stringContaining('not in registry-ID order') });
    expect(existsSync(searchFilePath(join(dir, 'unsorted.sqlite')))).toBe(false);
    expect(await answers(join(dir, 'unsorted.sqlite'))).toEqual(await answers(join(dir, 'single.sqlite')));
  });

  it('a search file tied to another build is not used: search answers 503 saying to rebuild, the rest is served', async () => {
    const { dir } = await built;
    const other = join(dir, 'other.sqlite');
    copyFileSync(join(dir, 'split.sqlite'), other);
    const again = await runIngest([join(dir, 'sorted.csv')], join(dir, 'again.sqlite'), { asOf: '2026-10-31', searchFileFrom: 0 });
    expect(again.summary.search.file).toBe(true);
    copyFileSync(searchFilePath(join(dir, 'again.sqlite')), searchFilePath(other)); // same rows, another build (built_at differs)
    const world = makeWorld({ deps: { index: FacilityIndex.open(other) } });
    const { key } = await world.keyFor('starter');
    const res = await world.call('/api/v1/search?q=acme', { key });
    expect(res.status).toBe(503);
    expect((await json(res)).error.message).toContain('rebuild it with `ingest`');
    expect((await world.call(`/api/v1/facility/${ROWS[0]!.REGISTRY_ID}`, { key })).status).toBe(200);
    expect(FacilityIndex.open(other).searchTables).toBe(`${searchFilePath(other)} is not tied to this index (another build): search unavailable`);
    copyFileSync(join(dir, 'sorted.csv'), searchFilePath(other)); // not a database at all
    expect(FacilityIndex.open(other).searchTables).toBe(`${searchFilePath(other)} cannot be opened (file is not a database): search unavailable`);
  });

  it('a release built with its tables inside removes the search file an earlier release left at the same path', async () => {
    const { dir } = await built;
    const out = join(dir, 'reused.sqlite');
    await runIngest([join(dir, 'sorted.csv')], out, { asOf: '2026-10-31', searchFileFrom: 0 });
    expect(existsSync(searchFilePath(out))).toBe(true);
    await runIngest([join(dir, 'sorted.csv')], out, { asOf: '2026-10-31' });
    expect(existsSync(searchFilePath(out))).toBe(false);
    expect((await answers(out))[0]).toEqual((await answers(join(dir, 'single.sqlite')))[0]);
  });

  it('a NUL in a name crosses to the thread as a word break, as FTS5 reads it; one in a state sends the tables into the index', async () => {
    const dir = tempDir('search-nul');
    const rows = ROWS.slice(0, 20).map((r, i) => (i === 3 ? { ...r, FAC_NAME: 'NULLY\u0000ZORBEX 3' } : r));
    const named = join(dir, 'named.sqlite');
    const a = await runIngest([writeFile(dir, 'named.csv', csvText(rows))], named, { asOf: '2026-10-31', searchFileFrom: 0 });
    expect(a.summary.search.file).toBe(true);
    const inside = join(dir, 'inside.sqlite');
    await runIngest([join(dir, 'named.csv')], inside, { asOf: '2026-10-31' });
    for (const path of [named, inside]) {
      const world = makeWorld({ deps: { index: FacilityIndex.open(path) } });
      const { key } = await world.keyFor('starter');
      for (const q of ['nully', 'zorbex']) {
        const body = await json(await world.call(`/api/v1/search?q=${q}`, { key }));
        expect([path, q, body.data.facilities.map((f: { registry_id: string }) => f.registry_id)]).toEqual([path, q, [rows[3]!.REGISTRY_ID]]);
      }
    }
    const state = rows.map((r, i) => (i === 5 ? { ...r, FAC_STATE: 'T\u0000X' } : r));
    const b = await runIngest([writeFile(dir, 'state.csv', csvText(state))], join(dir, 'state.sqlite'), { asOf: '2026-10-31', searchFileFrom: 0 });
    expect(b.summary.search).toMatchObject({ file: false, why: expect.stringContaining('NUL') });
    expect(existsSync(searchFilePath(join(dir, 'state.sqlite')))).toBe(false);
  });

  it('a failed build leaves no temp search file and the previous release (index and search file) as they were', async () => {
    const { dir } = await built;
    const out = join(dir, 'kept.sqlite');
    await runIngest([join(dir, 'sorted.csv')], out, { asOf: '2026-10-31', searchFileFrom: 0 });
    const before = await answers(out);
    const cut = writeFile(dir, 'cut.csv', csvText(ROWS).slice(0, -40));
    const err = await runIngest([cut], out, { asOf: '2026-10-31', searchFileFrom: 0 }).then(() => null, (e: Error) => e);
    expect(err?.message).toContain('truncated');
    expect(readdirSync(dir).filter((f) => f.includes('.tmp-'))).toEqual([]);
    expect(await answers(out)).toEqual(before);
  });
});

describe("the search file's thread writes its rows a round at a time", () => {
  it('many rounds give the same search_doc rows and FTS5 matches as the fill after the load, and a file tied to the identity given', async () => {
    const rows = Array.from({ length: 400 }, (_, i) =>
      facility({
        registry_id: String(990000002000 + i),
        fac_name: `${NAMES[(i * 3) % NAMES.length]} ${i}`,
        fac_city: CITIES[i % CITIES.length]!,
        fac_state: i % 2 ? 'TX' : 'OH',
        overall_score: [40, 62, 100, 100, 75][i % 5]!,
        active_enforcement: i % 9 === 0,
      }),
    );
    const dir = tempDir('search-rounds');
    const build = new SearchBuild(join(dir, 'x.sqlite.tmp-1'), 7); // 58 rounds
    for (const r of rows) build.add(indexRowOf(r));
    expect(await build.finish('identity-of-x')).toMatchObject({ file: true });
    const writer = new IndexWriter(':memory:');
    for (const r of rows) writer.add(r);
    writer.finish({ dataset_name: 't', as_of: '2026-11-01', score_version: 'test', fictitious: true, built_at: '2026-11-01T00:00:00.000Z', sources: [], row_counts: {} });
    const filled = writer.database;
    const file = new Database(build.tmpPath);
    const docs = (d: Database) => d.query('SELECT * FROM search_doc ORDER BY docid').all();
    expect(docs(file)).toEqual(docs(filled));
    for (const term of ['acme', 'riv*', 'elkhart', 'plant OR gulf', '"10"*']) {
      const matches = (d: Database) => d.query<{ rowid: number }, [string]>('SELECT rowid FROM facility_search WHERE facility_search MATCH ?1 ORDER BY rowid').all(term);
      expect([term, matches(file)]).toEqual([term, matches(filled)]);
    }
    expect(file.query("SELECT value FROM search_meta WHERE key = 'index_identity'").get()).toEqual({ value: 'identity-of-x' });
    expect(() => file.exec(`INSERT INTO facility_search(facility_search) VALUES ('integrity-check')`)).not.toThrow();
    file.close();
  });
});
