import { beforeAll, describe, expect, it } from 'bun:test';
import { Value } from '@sinclair/typebox/value';
import { FacilityResponse } from '../../src/facilities/model';
import { Envelope } from '../../src/shared/envelope';
import { FacilityHistory } from '../../src/history/model';
import { FacilityIndex } from '../../src/index/facility-index';
import { PortfolioResponse } from '../../src/portfolio/model';
import { json, makeWorld, type TestWorld } from '../helpers';
import { threeReleases, facilityTuples, type ScoreTuple, type ThreeReleases } from './releases';

let r: ThreeReleases;
let w: TestWorld;
let paid: { key: string; accountId: string };
let tuples: Map<string, ScoreTuple>[];
// the generator's place table takes seconds to build on a loaded machine
beforeAll(async () => {
  r = await threeReleases();
  w = makeWorld({ deps: { index: FacilityIndex.open(r.chained[2]) } });
  paid = await w.keyFor('enterprise', { monthlyLimit: 100_000 });
  tuples = r.plain.map(facilityTuples);
}, 120_000);

const history = (id: string, key = paid.key) => w.call(`/api/v1/facility/${id}/history`, { key });
/** IDs whose overall score differs between the second and third release. */
const movedLast = () => [...tuples[2]!.keys()].filter((id) => tuples[1]!.has(id) && tuples[1]!.get(id)!.overall_score !== tuples[2]!.get(id)!.overall_score);

describe('GET /api/v1/facility/{registry_id}/history', () => {
  it('answers the entries newest first with date, method (named as meta.dataset names it), change, score, components, flag and the score delta', async () => {
    const id = movedLast()[0]!;
    const res = await history(id);
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(Value.Check(Envelope(FacilityHistory), body)).toBe(true);
    const [latest, before] = body.data.entries;
    const t2 = tuples[2]!.get(id)!;
    expect(body.data.registry_id).toBe(id);
    expect(body.data.in_latest_release).toBe(true);
    expect(latest).toEqual({
      as_of: '2026-11-14',
      score_method: body.meta.dataset.score_method,
      change: 'changed',
      overall_score: t2.overall_score,
      components: { violation_frequency: t2.violation_frequency, penalty_severity: t2.penalty_severity, recency: t2.recency, repeat_offender: t2.repeat_offender },
      active_enforcement: t2.active_enforcement === 1,
      score_delta: t2.overall_score - tuples[1]!.get(id)!.overall_score,
    });
    expect(before.overall_score).toBe(tuples[1]!.get(id)!.overall_score);
    expect(body.data.entries.map((e: { as_of: string }) => e.as_of)).toEqual([...body.data.entries.map((e: { as_of: string }) => e.as_of)].sort().reverse());
  });

  it('a removed facility keeps its history: newest entry removed, no score; in_latest_release false', async () => {
    const id = r.manifests[1].removed[0]!;
    const body = await json(await history(id));
    expect(body.data.in_latest_release).toBe(false);
    expect(body.data.entries[0]).toMatchObject({ as_of: '2026-11-14', change: 'removed', overall_score: null, components: null, active_enforcement: null, score_delta: null });
    expect((await w.call(`/api/v1/facility/${id}`, { key: paid.key })).status).toBe(404);
  });

  it('a facility that never changed has one entry: added in the first release, no delta', async () => {
    const body = await json(await w.call('/api/v1/status'));
    const first = body.data.releases[0].as_of;
    const id = [...tuples[2]!.keys()].find((x) => w.deps.index.historyOf(x).length === 1 && w.deps.index.historyOf(x)[0]!.seq === 1)!;
    const h = await json(await history(id));
    expect(h.data.entries).toHaveLength(1);
    expect(h.data.entries[0]).toMatchObject({ as_of: first, change: 'added', score_delta: null, overall_score: tuples[2]!.get(id)!.overall_score });
  });

  it('an unknown ID is 404 NOT_FOUND and counted as one call; each call counts one', async () => {
    const k = await w.keyFor('starter');
    const res = await history('990999999999', k.key);
    expect(res.status).toBe(404);
    expect((await json(res)).error.code).toBe('NOT_FOUND');
    expect(await w.store.monthlyUsage(k.accountId, w.clock())).toBe(1);
    expect((await history(movedLast()[0]!, k.key)).status).toBe(200);
    expect(await w.store.monthlyUsage(k.accountId, w.clock())).toBe(2);
  });

  it('a malformed ID is 404 NOT_FOUND and not counted', async () => {
    const k = await w.keyFor('starter');
    const res = await history('99-abc', k.key);
    expect(res.status).toBe(404);
    expect(await w.store.monthlyUsage(k.accountId, w.clock())).toBe(0);
  });

  it('Free is 403 TIER_RESTRICTED (Starter or above), not counted; no key is 401', async () => {
    const free = await w.keyFor('free');
    const res = await history(movedLast()[0]!, free.key);
    const body = await json(res);
    expect(res.status).toBe(403);
    expect(body.error).toEqual({ code: 'TIER_RESTRICTED', status: 403, message: 'The facility history endpoint requires a Starter plan or above' });
    expect(await w.store.monthlyUsage(free.accountId, w.clock())).toBe(0);
    expect((await w.call(`/api/v1/facility/${movedLast()[0]}/history`)).status).toBe(401);
  });
});

describe('score_change on the facility record and portfolio items agrees with /history', () => {
  /** The rule applied to the /history body: the entry before the latest 'changed' entry whose score differs from it. */
  const fromHistory = (entries: { change: string; overall_score: number | null; as_of: string; score_delta: number | null }[]) => {
    const i = entries.findIndex((e) => e.change === 'changed' && e.score_delta !== null && e.score_delta !== 0);
    return i < 0 ? null : { previous_score: entries[i + 1]!.overall_score, previous_as_of: entries[i + 1]!.as_of, reason: 'data' };
  };

  it('for facilities whose score moved, and for a sample of the rest', async () => {
    const ids = [...movedLast().slice(0, 40), ...[...tuples[2]!.keys()].slice(0, 40)];
    let nonNull = 0;
    for (const id of ids) {
      const record = await json(await w.call(`/api/v1/facility/${id}`, { key: paid.key }));
      expect(Value.Check(FacilityResponse, record)).toBe(true);
      const h = await json(await history(id));
      expect(record.data.score_change).toEqual(fromHistory(h.data.entries));
      if (record.data.score_change) nonNull++;
    }
    expect(nonNull).toBeGreaterThanOrEqual(Math.min(40, movedLast().length));
  });

  it('portfolio items carry the same score_change as the facility record', async () => {
    const ids = [...movedLast().slice(0, 250), ...[...tuples[2]!.keys()].slice(0, 250)];
    const res = await w.call('/api/v1/portfolio', { method: 'POST', key: paid.key, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ registry_ids: ids }) });
    const body = await json(res);
    expect(Value.Check(PortfolioResponse, body)).toBe(true);
    for (const item of body.data.results) expect(item.score_change).toEqual(w.deps.index.scoreChangeOf(item.registry_id));
    expect(body.data.results.filter((i: { score_change: unknown }) => i.score_change !== null).length).toBeGreaterThan(0);
  });
});

describe('GET /api/v1/status lists the releases', () => {
  it('oldest first, with as-of date, score method, dataset and facility count; the last is the data served', async () => {
    const body = await json(await w.call('/api/v1/status'));
    const releases = body.data.releases;
    expect(releases.map((x: { seq: number; as_of: string }) => [x.seq, x.as_of])).toEqual([[1, '2026-10-31'], [2, '2026-11-07'], [3, '2026-11-14']]);
    expect(releases.at(-1)).toEqual({
      seq: 3,
      as_of: body.data.dataset.as_of,
      score_version: body.data.dataset.score_version,
      dataset_name: body.data.dataset.dataset_name,
      facility_count: body.data.dataset.facility_count,
    });
  });
});
