import { Database } from 'bun:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { Value } from '@sinclair/typebox/value';
import { Elysia } from 'elysia';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { FacilityResponse } from '../../src/facilities/model';
import { lookupFacility } from '../../src/facilities/service';
import { FacilityIndex } from '../../src/index/facility-index';
import { EXPLANATION_AT, parseDetail } from '../../src/index/facility-detail';
import { StoredLookup } from '../../src/index/stored-lookup';
import { ingest } from '../../src/index/ingest/ingest';
import { encodePrograms, programsOfArray, sharedRecordsOf, type StoredProgram } from '../../src/index/program-codec';
import { inputsOfStored } from '../../src/index/inputs-codec';
import { explanationLines } from '../../src/scoring/explain';
import { SCORE_VERSION } from '../../src/scoring/score';
import { TIERS, type Tier } from '../../src/tiers';
import { json, makeWorld } from '../helpers';
import { addHistory } from '../support/history-index';
import { removeTempDirs, tempDir } from '../support/temp-dir';

const SAMPLE_CSV = join(import.meta.dir, '..', '..', 'data', 'sample-echo-exporter.csv.gz');
const META = { request_id: 'req_TEST', timestamp: '2026-11-15T12:00:00.000Z', response_time_ms: 3 };

/**
 * Turns a format-10 index file into the format-6 layout it replaces: programs back in
 * facility_programs (program-codec.ts text), no stored detail, templates or peers JSON. Its lookups
 * then take the per-request path (explained from the inputs), the computation format 7 stores.
 */
function toFormat6(path: string): void {
  const db = new Database(path, { strict: true });
  db.exec('CREATE TABLE facility_programs (registry_id TEXT PRIMARY KEY NOT NULL, programs TEXT NOT NULL) WITHOUT ROWID');
  const put = db.prepare('INSERT INTO facility_programs VALUES (?, ?)');
  const shared = sharedRecordsOf(db.query<{ id: number; record: string }, []>('SELECT id, record FROM program_record').all());
  const rows = db.query<{ registry_id: string; detail: string }, []>('SELECT f.registry_id, coalesce(s.detail, f.detail) AS detail FROM facility f LEFT JOIN shared_detail s ON s.id = f.detail').all();
  for (const { registry_id, detail } of rows) {
    const text = encodePrograms(programsOfArray(parseDetail(detail)[0], shared));
    if (text !== null) put.run(registry_id, text);
  }
  db.exec("ALTER TABLE facility DROP COLUMN detail; ALTER TABLE peer_rank DROP COLUMN peers; DROP TABLE reason_template; DROP TABLE program_record; DROP TABLE shared_detail; UPDATE index_meta SET value = '6' WHERE key = 'format'; VACUUM");
  db.close();
}

/**
 * Turns a format-10 index file into the format-9 layout it replaces: every program record and
 * detail back in the row as text (no program_record, no shared_detail), the inputs keyed objects
 * (no inputs_keys). Formats 7 and 8 store details the same way.
 */
function toFormat9(path: string): void {
  const db = new Database(path, { strict: true });
  const keys = JSON.parse(db.query<{ value: string }, []>("SELECT value FROM index_meta WHERE key = 'inputs_keys'").get()!.value) as string[];
  const shared = sharedRecordsOf(db.query<{ id: number; record: string }, []>('SELECT id, record FROM program_record').all());
  const putDetail = db.prepare('UPDATE facility SET detail = ?2 WHERE registry_id = ?1');
  const details = db.query<{ registry_id: string; detail: string }, []>('SELECT f.registry_id, coalesce(s.detail, f.detail) AS detail FROM facility f LEFT JOIN shared_detail s ON s.id = f.detail').all();
  for (const { registry_id, detail } of details) {
    const d = parseDetail(detail);
    if (d[0] !== 0) d[0] = (d[0] as StoredProgram[]).map((p) => (typeof p === 'number' ? [...shared[p]!] : p));
    putDetail.run(registry_id, JSON.stringify(d));
  }
  const putInputs = db.prepare('UPDATE facility_inputs SET score_inputs = ?2 WHERE registry_id = ?1');
  for (const row of db.query<{ registry_id: string; score_inputs: string }, []>('SELECT registry_id, score_inputs FROM facility_inputs').all()) {
    putInputs.run(row.registry_id, JSON.stringify(inputsOfStored(row.score_inputs, keys)));
  }
  db.exec("DROP TABLE program_record; DROP TABLE shared_detail; DELETE FROM index_meta WHERE key = 'inputs_keys'; UPDATE index_meta SET value = '9' WHERE key = 'format'; VACUUM");
  db.close();
}

let stored: FacilityIndex;
let legacy: FacilityIndex;
let format9: FacilityIndex;
let ids: string[];
let changed: string[];

beforeAll(async () => {
  const dir = tempDir('stored-lookup');
  const path = join(dir, 'sample.sqlite');
  await ingest({ files: [SAMPLE_CSV], out: path, log: () => {}, inline: true });
  const db = new Database(path, { strict: true });
  ids = db.query<{ registry_id: string }, []>('SELECT registry_id FROM facility ORDER BY registry_id').all().map((r) => r.registry_id);
  // a second release for 200 facilities, so score_change is not always null
  changed = ids.filter((_, i) => i % 100 === 7);
  const asOf = (JSON.parse(db.query<{ value: string }, []>("SELECT value FROM index_meta WHERE key = 'info'").get()!.value) as { as_of: string }).as_of;
  addHistory(
    db,
    [{ seq: 1, as_of: '2026-01-31', score_version: SCORE_VERSION }, { seq: 2, as_of: asOf, score_version: SCORE_VERSION }],
    changed.flatMap((registry_id, i) => [
      { registry_id, seq: 1, change: 'added' as const, score: i % 101 },
      { registry_id, seq: 2, change: 'changed' as const, score: (i + 50) % 101 },
    ]),
  );
  db.close();
  const old = join(dir, 'format-6.sqlite');
  copyFileSync(path, old);
  toFormat6(old);
  const nine = join(dir, 'format-9.sqlite');
  copyFileSync(path, nine);
  toFormat9(nine);
  stored = FacilityIndex.open(path);
  legacy = FacilityIndex.open(old);
  format9 = FacilityIndex.open(nine);
}, 120_000);

afterAll(() => {
  stored?.close();
  legacy?.close();
  format9?.close();
  removeTempDirs();
});

describe('a lookup of an index that stores programs and explanations (format 7)', () => {
  it('the two indexes are what the test says: one with stored detail, one without', () => {
    expect(stored.stored).not.toBeNull();
    expect(legacy.stored).toBeNull();
    expect(ids.length).toBeGreaterThan(19_000);
  });

  it.each(TIERS)('every facility of the sample, %s tier: the body is byte for byte the per-request computation it replaces (format 6)', (tier: Tier) => {
    let withPrograms = 0;
    let withChange = 0;
    for (const id of ids) {
      const expected = JSON.stringify({ data: lookupFacility(legacy, id, tier), meta: META });
      const body = JSON.stringify({ data: lookupFacility(stored, id, tier), meta: META });
      if (body !== expected) expect({ id, body }).toEqual({ id, body: expected });
      if (body.includes('"status":')) withPrograms++;
      if (body.includes('"previous_score":')) withChange++;
    }
    // the comparison covered what matters: program records (redacted on Free) and score changes
    expect(withPrograms > ids.length / 2).toBe(tier !== 'free');
    expect(withChange).toBe(changed.length);
  });

  it('an unknown ID is 404 on both paths', () => {
    for (const index of [stored, legacy]) for (const tier of TIERS) expect(() => lookupFacility(index, '990000000000', tier)).toThrow('No facility with registry ID 990000000000');
  });
});

describe('an index of formats 7 to 9 (every record and detail in its row, keyed inputs) reads as format 10 does', () => {
  it('the file is that layout: text details with their records inline, no shared tables, keyed inputs', () => {
    expect(format9.stored).not.toBeNull();
    expect(format9.inputsKeys).toBeNull();
    expect(format9.db.query("SELECT count(*) AS n FROM sqlite_schema WHERE name IN ('program_record', 'shared_detail')").get()).toEqual({ n: 0 });
    expect(format9.db.query("SELECT count(*) AS n FROM facility WHERE typeof(detail) <> 'text'").get()).toEqual({ n: 0 });
    expect(format9.db.query("SELECT count(*) AS n FROM facility WHERE detail LIKE '[[[%' OR detail LIKE '[[null,[%'").get()).not.toEqual({ n: 0 });
  });

  it.each(TIERS)('every facility of the sample, %s tier: the same body byte for byte, and the same full row (reports)', (tier: Tier) => {
    for (const id of ids) {
      const body = JSON.stringify(lookupFacility(format9, id, tier));
      const expected = JSON.stringify(lookupFacility(stored, id, tier));
      if (body !== expected) expect({ id, body }).toEqual({ id, body: expected });
    }
    if (tier !== 'free') return;
    for (const id of ids.filter((_, i) => i % 10 === 0)) {
      const full = JSON.stringify(format9.getDetail(id));
      const expected = JSON.stringify(stored.getDetail(id));
      if (full !== expected) expect({ id, full }).toEqual({ id, full: expected });
    }
  });
});

describe("the Starter+ body leaves Elysia's normaliser out and loses nothing by it", () => {
  const check = TypeCompiler.Compile(FacilityResponse);

  it.each(TIERS)('%s tier: every body of the sample is valid against FacilityResponse and holds no field beyond it', (tier: Tier) => {
    for (const id of ids) {
      const body = JSON.parse(JSON.stringify({ data: lookupFacility(stored, id, tier), meta: META }));
      if (!check.Check(body)) expect({ id, error: check.Errors(body).First()?.message }).toEqual({ id, error: undefined });
      // TypeBox's Clean drops every property the schema does not declare: nothing to drop
      const cleaned = Value.Clean(FacilityResponse, structuredClone(body));
      if (JSON.stringify(cleaned) !== JSON.stringify(body)) expect({ id, cleaned }).toEqual({ id, cleaned: body });
    }
  });

  it("the served bytes equal what Elysia's normaliser made of the record, for 500 facilities and every tier", async () => {
    const world = makeWorld({ deps: { index: stored } });
    // the route as it was before: the record computed per request (format 6) returned as an object, normalised against the same schema
    const before = new Elysia().get('/before/:registry_id/:tier', ({ params }) => ({ data: lookupFacility(legacy, params.registry_id, params.tier as Tier), meta: META }), {
      response: { 200: FacilityResponse },
    });
    for (const tier of TIERS) {
      const { key } = await world.keyFor(tier, { monthlyLimit: 100_000 });
      for (const id of ids.filter((_, i) => i % 40 === 3)) {
        const res = await world.call(`/api/v1/facility/${id}`, { key });
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('application/json;charset=utf-8');
        const text = await res.text();
        const old = await before.handle(new Request(`http://localhost/before/${id}/${tier}`));
        expect(old.headers.get('content-type')).toBe('application/json;charset=utf-8');
        const dataOf = (t: string) => t.slice(0, t.lastIndexOf(',"meta":'));
        expect(dataOf(text)).toBe(dataOf(await old.text()));
      }
    }
  });

  it('the response still carries the request id, the quota headers and CORS, and the call is counted', async () => {
    const world = makeWorld({ deps: { index: stored }, config: { corsOrigins: ['https://app.example'] } });
    const { key, accountId } = await world.keyFor('starter', { monthlyLimit: 1_000 });
    const res = await world.call(`/api/v1/facility/${ids[0]}`, { key, headers: { 'x-request-id': 'abc-123', origin: 'https://app.example' } });
    const body = await json(res);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('abc-123');
    expect(body.meta.request_id).toBe('abc-123');
    expect(res.headers.get('x-ratelimit-limit')).toBe('1000');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('999');
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(await world.store.monthlyUsage(accountId, world.clock())).toBe(1);
  });
});

describe('an index of the format before (6) still serves programs, peers and explanations', () => {
  it('through the route, explained per request', async () => {
    const world = makeWorld({ deps: { index: legacy } });
    const { key } = await world.keyFor('platform', { monthlyLimit: 100 });
    // a facility with program records that lost points in every component (each then has its explanation line)
    const lostEverywhere = (i: string) => {
      const r = stored.get(i)!;
      return r.violation_frequency < 15 && r.penalty_severity < 30 && r.recency < 25 && r.repeat_offender < 15;
    };
    const id = ids.find((i) => lostEverywhere(i) && JSON.stringify(lookupFacility(legacy, i, 'platform').programs).includes('"status"'))!;
    const body = await json(await world.call(`/api/v1/facility/${id}`, { key }));
    expect(Value.Check(FacilityResponse, body)).toBe(true);
    expect(Object.values(body.data.programs).some((p) => p !== null)).toBe(true);
    expect([typeof body.data.peers.naics, typeof body.data.peers.peer_count]).toEqual(['string', 'number']);
    expect(body.data.explanation.map((l: { component: string }) => l.component)).toEqual(['violation_frequency', 'penalty_severity', 'recency', 'repeat_offender']);
    expect(JSON.stringify(body.data)).toBe(JSON.stringify(lookupFacility(stored, id, 'platform')));
  });
});

describe('stored details are decoded once per distinct detail (StoredLookup.decoded)', () => {
  it('shared details (format 10) are ids in the row and their text once in shared_detail; the rest is text in the row', () => {
    const kinds = stored.db.query<{ kind: string; n: number }, []>('SELECT typeof(detail) AS kind, count(*) AS n FROM facility GROUP BY 1 ORDER BY 1').all();
    expect(kinds.map((k) => k.kind)).toEqual(['integer', 'text']);
    const integer = kinds[0]!.n;
    expect(integer).toBeGreaterThan(ids.length / 2);
    const sharedRows = stored.db.query<{ n: number; used: number }, []>('SELECT count(*) AS n, (SELECT count(DISTINCT detail) FROM facility WHERE typeof(detail) = \'integer\') AS used FROM shared_detail').get()!;
    // each shared text is stored once and used; no row's text is also a shared one
    expect(sharedRows.used).toBe(sharedRows.n);
    expect(stored.db.query('SELECT count(*) AS n FROM facility f JOIN shared_detail s ON s.detail = f.detail').get()).toEqual({ n: 0 });
    expect(stored.db.query('SELECT count(*) AS n FROM (SELECT detail FROM shared_detail GROUP BY detail HAVING count(*) > 1)').get()).toEqual({ n: 0 });
  });

  it('every detail decodes as a fresh parse of its text does, the same detail gives the same frozen value, and the memo stays within its bound', () => {
    const details = stored.db.query<{ detail: string | number }, []>('SELECT detail FROM facility ORDER BY registry_id').all().map((r) => r.detail);
    const shared = sharedRecordsOf(stored.db.query<{ id: number; record: string }, []>('SELECT id, record FROM program_record').all());
    expect(shared.length).toBeGreaterThan(0);
    const bounded = new StoredLookup(stored.db, 'f.registry_id', 3);
    const reasons = stored.stored!.reasons;
    let repeats = 0;
    let previous = { text: '' as string | number, value: null as unknown };
    for (const text of details) {
      const d = bounded.decoded(text);
      const parsed = parseDetail(bounded.textOf(text));
      expect(JSON.stringify({ programs: d.programs, why: d.why })).toBe(JSON.stringify({ programs: programsOfArray(parsed[0], shared), why: reasons.explanation(parsed, EXPLANATION_AT) }));
      expect(bounded.decoded(text)).toBe(d);
      if (previous.text === text) {
        expect(d === previous.value).toBe(true);
        repeats++;
      }
      expect(bounded.memoSize).toBeLessThanOrEqual(3);
      expect([Object.isFrozen(d), Object.isFrozen(d.programs), Object.isFrozen(d.why)]).toEqual([true, true, true]);
      for (const p of Object.values(d.programs)) if (p) expect(Object.isFrozen(p)).toBe(true);
      previous = { text, value: d };
    }
    expect(repeats).toBeGreaterThan(0);
    expect(() => bounded.decoded(1_000_000)).toThrow('shared detail 1000000 is not in the index');
    // explanation lines are shared for the same detail and points, and rebuilt when the points differ
    const d = bounded.decoded(details[0]!);
    const some = { violation_frequency: 14, penalty_severity: 29, recency: 24, repeat_offender: 14 };
    const worse = { violation_frequency: 3, penalty_severity: 30, recency: 25, repeat_offender: 0 };
    const first = bounded.explanationOf(d, some);
    expect(bounded.explanationOf(d, some) === first).toBe(true);
    expect(first.map((l) => l.points_lost)).toEqual([1, 1, 1, 1]);
    expect(bounded.explanationOf(d, worse)).toEqual(explanationLines(worse, d.why));
    // a component that lost nothing has no line
    expect(bounded.explanationOf(d, worse).map((l) => [l.component, l.points_lost])).toEqual([['violation_frequency', 12], ['repeat_offender', 15]]);
    expect(bounded.explanationOf(d, some)).toEqual(explanationLines(some, d.why));
    expect(first.every((l) => Object.isFrozen(l))).toBe(true);
    // ...and the array holding them is not: a frozen array sends JSC's JSON.stringify off its fast path (~4x slower)
    expect([Object.isFrozen(first), Object.isSealed(first), Object.isExtensible(first)]).toEqual([false, false, true]);
    const somePrograms = bounded.decoded(details.find((t) => typeof t === 'string' && !t.startsWith('[0,'))!).programs;
    expect(() => {
      (somePrograms as { caa: unknown }).caa = 'changed';
    }).toThrow();
  });
});
