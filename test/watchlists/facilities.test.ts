import { describe, expect, it } from 'bun:test';
import { facility, json, makeWorld } from '../helpers';
import { historyIndex } from '../support/history-index';
import { judgedPair, PAIRED, without } from '../support/judged-pair';

// GET /api/v1/watchlists/{id}/facilities: the list as a person reads it (name, score, latest change), counted.
const DROPPED = '990000003001';
const SAME = '990000003002';
const REMOVED = '990000003003';
const UNKNOWN = '990000003004';
const index = historyIndex(
  [facility({ registry_id: DROPPED, fac_name: 'DROPPING PLANT', overall_score: 52 }), facility({ registry_id: SAME, fac_name: 'STEADY PLANT', overall_score: 80 })],
  [{ seq: 1, as_of: '2026-10-01' }, { seq: 2, as_of: '2026-10-08' }],
  [
    ...[DROPPED, SAME, REMOVED].map((registry_id) => ({ registry_id, seq: 1, change: 'added' as const, score: 80 })),
    { registry_id: DROPPED, seq: 2, change: 'changed', score: 52 },
    { registry_id: REMOVED, seq: 2, change: 'removed' },
  ],
);
const world = makeWorld({ deps: { index } });

describe('GET /api/v1/watchlists/{id}/facilities', () => {
  it('gives each watched ID its name, score and latest change, and counts one call', async () => {
    const { key, accountId } = await world.keyFor('starter');
    const made = (await json(await world.call('/api/v1/watchlists', { method: 'POST', key, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'n', registry_ids: [UNKNOWN, SAME, DROPPED, REMOVED] }) }))).data;
    const res = await world.call(`/api/v1/watchlists/${made.id}/facilities`, { key });
    expect(res.status).toBe(200);
    expect((await json(res)).data).toEqual({
      watchlist_id: made.id,
      facilities: [
        { registry_id: DROPPED, fac_name: 'DROPPING PLANT', overall_score: 52, active_enforcement: false, data_sufficient: true, last_change: { as_of: '2026-10-08', kind: 'changed', overall_score: 52, previous_score: 80 } },
        { registry_id: SAME, fac_name: 'STEADY PLANT', overall_score: 80, active_enforcement: false, data_sufficient: true, last_change: { as_of: '2026-10-01', kind: 'added', overall_score: 80, previous_score: null } },
        { registry_id: REMOVED, fac_name: null, overall_score: null, active_enforcement: null, data_sufficient: null, last_change: { as_of: '2026-10-08', kind: 'removed', overall_score: null, previous_score: 80 } },
        { registry_id: UNKNOWN, fac_name: null, overall_score: null, active_enforcement: null, data_sufficient: null, last_change: null },
      ],
      total: 4,
      next_cursor: null,
    });
    expect(await world.store.monthlyUsage(accountId, world.clock())).toBe(1);
  });

  it('pages as /registry_ids does, at most 100 a page (limit over that is 422, not counted)', async () => {
    const { key, accountId } = await world.keyFor('starter');
    const made = (await json(await world.call('/api/v1/watchlists', { method: 'POST', key, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'n', registry_ids: [UNKNOWN, SAME, DROPPED, REMOVED] }) }))).data;
    const first = (await json(await world.call(`/api/v1/watchlists/${made.id}/facilities?limit=3`, { key }))).data;
    expect(first.facilities.map((f: { registry_id: string }) => f.registry_id)).toEqual([DROPPED, SAME, REMOVED]);
    const rest = (await json(await world.call(`/api/v1/watchlists/${made.id}/facilities?limit=3&cursor=${first.next_cursor}`, { key }))).data;
    expect([rest.facilities.map((f: { registry_id: string }) => f.registry_id), rest.next_cursor]).toEqual([[UNKNOWN], null]);
    expect((await world.call(`/api/v1/watchlists/${made.id}/facilities?limit=101`, { key })).status).toBe(422);
    expect(await world.store.monthlyUsage(accountId, world.clock())).toBe(2);
  });
});

describe('a watched facility whose data is not enough to judge: one input changed, FAC_ACTIVE_FLAG Y, then N', () => {
  it('data_sufficient is true, then false; nothing else of it differs', async () => {
    const pair = await judgedPair();
    const [judged, unjudged] = await Promise.all([pair.judged, pair.unjudged].map(async (w) => {
      const made = (await json(await w.call('/api/v1/watchlists', { method: 'POST', key: w.key, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'n', registry_ids: [PAIRED.registry_id] }) }))).data;
      return (await json(await w.call(`/api/v1/watchlists/${made.id}/facilities`, { key: w.key }))).data.facilities[0];
    }));
    expect([judged.registry_id, judged.data_sufficient, unjudged.data_sufficient]).toEqual([PAIRED.registry_id, true, false]);
    expect(without(unjudged, 'data_sufficient')).toEqual(without(judged, 'data_sufficient'));
  });
});
