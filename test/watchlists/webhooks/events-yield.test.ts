import { afterAll, describe, expect, it } from 'bun:test';
import { json, makeWorld } from '../../helpers';
import { historyIndex } from '../../support/history-index';
import { A, B, C, D, HISTORY, RELEASES, ROWS_3 } from '../../support/release-fixture';
import { SqliteStateStore } from '../../../src/state/sqlite-store';
import { emitReleaseEvents } from '../../../src/watchlists/webhooks/release-events';
import type { WatchlistRecord } from '../../../src/watchlists/model';

// What the serving process does after a SIGHUP brings new releases (src/cli/serve.ts, onIndexServed):
// turning them into webhook events for every hooked list. With many watched IDs this must leave
// the event loop to requests meanwhile. Judged by which finishes first, not by a time threshold.
const LISTS = 30;
const IDS = 10_000;

const store = new SqliteStateStore(':memory:');
const index = historyIndex(ROWS_3, RELEASES, HISTORY);
const world = makeWorld({ store, deps: { index } });
const server = world.app.listen({ port: 0, hostname: '127.0.0.1' }).server!;
afterAll(async () => {
  await server.stop(true);
});

const { key, accountId } = await world.keyFor('enterprise');
for (let n = 0; n < LISTS; n++) {
  // The fixture's facilities are in the first list; the rest are IDs no release changed.
  const ids = Array.from({ length: IDS }, (_, i) => String(100_000_000_000 + n * IDS + i));
  if (n === 0) ids.splice(0, 4, A, B, C, D);
  const at = new Date(world.clock()).toISOString();
  const list: WatchlistRecord = { id: `wl_${n.toString(16).padStart(16, '0')}`, account_id: accountId, name: `list ${n}`, registry_ids: ids, rule: null, webhook_url: 'http://127.0.0.1:9/hook', webhook_secret: 'whsec_x', base_as_of: '2026-09-01', created_at: at, updated_at: at };
  await store.watch.createWatchlist(list, LISTS);
}

describe('turning releases into events for 300,000 watched IDs', () => {
  it('a lookup sent while the events are made is answered before they are done, and every event is queued', async () => {
    const finished: string[] = [];
    const events = emitReleaseEvents({ index, watch: store.watch, accounts: (id) => store.getAccount(id), now: world.clock(), log: () => {} }).then((n) => {
      finished.push('events');
      return n;
    });
    const lookup = fetch(`http://127.0.0.1:${server.port}/api/v1/facility/${A}`, { headers: { 'x-api-key': key } }).then(async (res) => {
      finished.push('lookup');
      return res;
    });
    const [queued, res] = await Promise.all([events, lookup]);
    expect(finished).toEqual(['lookup', 'events']);
    expect(res.status).toBe(200);
    expect((await json(res)).data.registry_id).toBe(A);
    // Release 2: A changed, B's enforcement started, C removed; release 3: A and D changed. All for list 0.
    expect(queued).toBe(5);
    expect((await store.watch.listDeliveries('wl_0000000000000000', 10)).map((d) => [d.as_of, d.registry_id, d.type]).sort()).toEqual([
      ['2026-10-08', A, 'facility.score_changed'],
      ['2026-10-08', B, 'facility.enforcement_started'],
      ['2026-10-08', C, 'facility.removed'],
      ['2026-10-15', A, 'facility.score_changed'],
      ['2026-10-15', D, 'facility.score_changed'],
    ]);
    expect(await store.watch.releaseDone('2026-10-15')).toBe(true);
  }, 60_000);
});
