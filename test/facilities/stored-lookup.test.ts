import { activeEnforcementBasis } from '../../src/scoring/active-enforcement';
import { Database } from 'bun:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { Value } from '@sinclair/typebox/value';
import { Elysia } from 'elysia';
import { join } from 'node:path';
import { AppError } from '../../src/errors';
import { FacilityResponse, type FacilityRecord } from '../../src/facilities/model';
import { lookupFacility, toFacilityRecord } from '../../src/facilities/service';
import { FacilityIndex, connectionOf } from '../../src/index/facility-index';
import { EXPLANATION_AT, parseDetail } from '../../src/index/facility-detail';
import { StoredLookup } from '../../src/index/stored-lookup';
import { ingest } from '../../src/ingest/ingest';
import { programsOfArray, sharedRecordsOf } from '../../src/index/program-codec';
import { explainComponents, explanationLines } from '../../src/scoring/explain';
import { SCORE_VERSION } from '../../src/scoring/score';
import { TIERS, type Tier } from '../../src/tiers';
import { json, makeWorld } from '../helpers';
import { addHistory } from '../support/history-index';
import { dataCompleteness } from '../../src/scoring/completeness';
import { factsOf } from '../../src/scoring/facts';
import { removeTempDirs, tempDir } from '../support/temp-dir';

const SAMPLE_CSV = join(import.meta.dir, '..', '..', 'data', 'sample-echo-exporter.csv.gz');
const META = { request_id: 'req_TEST', timestamp: '2026-11-15T12:00:00.000Z', response_time_ms: 3 };

/**
 * The record as the score model derives it per request from the full row (inputs explained again,
 * peers from peer_rank's columns): the computation the stored answer replaces.
 */
function derivedRecord(index: FacilityIndex, id: string, tier: Tier, withEvidence = false): FacilityRecord {
  const row = index.getDetail(id);
  if (!row) throw new Error(`No facility with registry ID ${id} is in the index`);
  const extras = { programs: row.score_inputs.programs, peers: row.peers, explanation: explanationLines(row, explainComponents(row.score_inputs, index.info.as_of)) };
  const facts = factsOf(row.score_inputs, index.info.as_of);
  const beside = { completeness: dataCompleteness(facts, 'echo-exporter'), evidence: { stored: row.evidence, empty: row.evidence }, basis: activeEnforcementBasis(facts) };
  return toFacilityRecord({ row, scoreChange: index.scoreChangeOf(id), extras, beside }, tier, withEvidence);
}

let stored: FacilityIndex;
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
  stored = FacilityIndex.open(path);
}, 120_000);

afterAll(() => {
  stored?.close();
  removeTempDirs();
});

describe('a lookup reads the programs and explanation ingest stored', () => {
  it.each(TIERS.flatMap((tier) => [[tier, false], [tier, true]] as const))('every facility of the sample, %s tier (evidence asked for: %p): the body is byte for byte the per-request computation it replaces', (tier: Tier, withEvidence: boolean) => {
    expect(ids.length).toBeGreaterThan(19_000);
    let withPrograms = 0;
    let withChange = 0;
    for (const id of ids) {
      const expected = JSON.stringify({ data: derivedRecord(stored, id, tier, withEvidence), meta: META });
      const body = JSON.stringify({ data: lookupFacility(stored, id, tier, withEvidence), meta: META });
      if (body !== expected) expect({ id, body }).toEqual({ id, body: expected });
      if (body.includes('"status":')) withPrograms++;
      if (body.includes('"previous_score":')) withChange++;
    }
    // the comparison covered what matters: program records (redacted on Free) and score changes
    expect(withPrograms > ids.length / 2).toBe(tier !== 'free');
    expect(withChange).toBe(changed.length);
  });

  it('an unknown ID is 404 on every tier', () => {
    for (const tier of TIERS) {
      const err = (() => {
        try {
          lookupFacility(stored, '990000000000', tier);
        } catch (e) {
          return e;
        }
      })();
      expect(err).toBeInstanceOf(AppError);
      expect(err).toMatchObject({ errorCode: 'NOT_FOUND', message: 'No facility with registry ID 990000000000 is in the index' });
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
    // the route as it was before: the record computed per request returned as an object, normalised against the same schema
    const before = new Elysia().get('/before/:registry_id/:tier', ({ params }) => ({ data: derivedRecord(stored, params.registry_id, params.tier as Tier), meta: META }), {
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

describe('stored details are decoded once per distinct detail (StoredLookup.decoded)', () => {
  it('shared details are ids in the row and their text once in shared_detail; the rest is text in the row', () => {
    const kinds = connectionOf(stored).query<{ kind: string; n: number }, []>('SELECT typeof(detail) AS kind, count(*) AS n FROM facility GROUP BY 1 ORDER BY 1').all();
    expect(kinds.map((k) => k.kind)).toEqual(['integer', 'text']);
    const integer = kinds[0]!.n;
    expect(integer).toBeGreaterThan(ids.length / 2);
    const sharedRows = connectionOf(stored).query<{ n: number; used: number }, []>('SELECT count(*) AS n, (SELECT count(DISTINCT detail) FROM facility WHERE typeof(detail) = \'integer\') AS used FROM shared_detail').get()!;
    // each shared text is stored once and used; no row's text is also a shared one
    expect(sharedRows.used).toBe(sharedRows.n);
    expect(connectionOf(stored).query('SELECT count(*) AS n FROM facility f JOIN shared_detail s ON s.detail = f.detail').get()).toEqual({ n: 0 });
    expect(connectionOf(stored).query('SELECT count(*) AS n FROM (SELECT detail FROM shared_detail GROUP BY detail HAVING count(*) > 1)').get()).toEqual({ n: 0 });
  });

  it('every detail decodes as a fresh parse of its text does, the same detail gives the same frozen value, and the memo stays within its bound', () => {
    const details = connectionOf(stored).query<{ detail: string | number }, []>('SELECT detail FROM facility ORDER BY registry_id').all().map((r) => r.detail);
    const shared = sharedRecordsOf(connectionOf(stored).query<{ id: number; record: string }, []>('SELECT id, record FROM program_record').all());
    expect(shared.length).toBeGreaterThan(0);
    const bounded = new StoredLookup(connectionOf(stored), 'f.registry_id', stored.info.score_version, 3);
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
