import { describe, expect, it } from 'bun:test';
import { json, makeWorld } from '../helpers';
import type { WatchlistRecord } from '../../src/watchlists/model';

// The largest account the plans allow: Enterprise, 100 lists of 10,000 IDs each (1M watched IDs).
const LISTS = 100;
const IDS = 10_000;

const world = makeWorld();
const { key, accountId } = await world.keyFor('enterprise');
const idsOf = (n: number) => Array.from({ length: IDS }, (_, i) => String(110_000_000_000 + n * IDS + (IDS - 1 - i))); // stored in descending order
for (let n = 0; n < LISTS; n++) {
  const at = new Date(world.clock()).toISOString();
  const w: WatchlistRecord = { id: `wl_${n.toString(16).padStart(16, '0')}`, account_id: accountId, name: `list ${n}`, registry_ids: idsOf(n), rule: null, webhook_url: null, webhook_secret: null, base_as_of: '2026-11-01', created_at: at, updated_at: at };
  await world.store.watch.createWatchlist(w, LISTS);
}

describe('reading an account with 100 lists of 10,000 IDs', () => {
  it('the list of watchlists is small: every list with its count, none with its IDs (under 64 KiB for 1M IDs)', async () => {
    const res = await world.call('/api/v1/watchlists', { key });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text.length).toBeLessThan(64 * 1024);
    const { data } = JSON.parse(text);
    expect(data.total).toBe(LISTS);
    expect(data.watchlists.map((w: { registry_id_count: number }) => w.registry_id_count)).toEqual(Array(LISTS).fill(IDS));
    expect(data.watchlists.some((w: object) => 'registry_ids' in w || 'webhook_secret' in w)).toBe(false);
    expect(data.watchlists[7]).toMatchObject({ id: 'wl_0000000000000007', name: 'list 7', rule: null, webhook_url: null });
  });

  it('every ID of a list is reached by following next_cursor, in ascending order, each once', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await world.call(`/api/v1/watchlists/wl_0000000000000003/registry_ids?limit=1000${cursor ? `&cursor=${cursor}` : ''}`, { key });
      expect(res.status).toBe(200);
      const { data } = await json(res);
      expect(data.total).toBe(IDS);
      expect(data.registry_ids.length).toBeLessThanOrEqual(1000);
      seen.push(...data.registry_ids);
      cursor = data.next_cursor;
      pages++;
    } while (cursor !== null && pages < 20);
    expect(pages).toBe(10);
    expect(seen).toEqual([...idsOf(3)].sort());
  });

  const id12 = (n: string) => `99000000000${n}`;
  it('a page after a cursor skips nothing the list kept when the list changed between pages', async () => {
    const w = makeWorld();
    const k = await w.keyFor('starter');
    const made = (await json(await w.call('/api/v1/watchlists', { method: 'POST', key: k.key, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'n', registry_ids: ['5', '1', '3', '4', '2'].map(id12) }) }))).data;
    expect(made.registry_id_count).toBe(5);
    const first = (await json(await w.call(`/api/v1/watchlists/${made.id}/registry_ids?limit=2`, { key: k.key }))).data;
    expect(first).toMatchObject({ registry_ids: ['1', '2'].map(id12), next_cursor: id12('2'), total: 5 });
    await w.call(`/api/v1/watchlists/${made.id}`, { method: 'PATCH', key: k.key, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ registry_ids: ['1', '2', '3', '5', '0'].map(id12) }) });
    const rest = (await json(await w.call(`/api/v1/watchlists/${made.id}/registry_ids?limit=2&cursor=${id12('2')}`, { key: k.key }))).data;
    expect(rest).toMatchObject({ registry_ids: ['3', '5'].map(id12), next_cursor: null, total: 5 });
    expect(await w.store.monthlyUsage(k.accountId, w.clock())).toBe(0);
  });
});
