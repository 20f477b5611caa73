import type { ReleaseChange } from '../../index/history-tables/release-changes';
import type { FacilityIndex } from '../../index/facility-index';
import { sha256Hex } from '../../hash';
import type { Log } from '../../log';
import { nextTurn } from '../../shared/turns';
import type { Account } from '../../state/model';
import type { OutboxEvent, WatchStore } from '../../state/watch-store';
import type { WatchlistRecord } from '../../state/watch-model';
import { watchlistsLive } from '../limits';
import { matchChange } from '../rules';

/**
 * The webhook-id of the event a change makes for a list: derived, not random, so turning the same
 * release into events again (after a crash, or on a second replica) yields the same ids, which the
 * outbox keeps once.
 */
export function eventId(watchlistId: string, asOf: string, registryId: string): string {
  return `msg_${sha256Hex(`${watchlistId}|${asOf}|${registryId}`).slice(0, 32)}`;
}

/** The events of one release for these lists: one per watched ID whose change the list's rule matches. */
export function eventsOfRelease(changes: ReleaseChange[], release: { as_of: string }, lists: WatchlistRecord[], now: number): OutboxEvent[] {
  const byId = new Map<string, ReleaseChange>();
  for (const c of changes) byId.set(c.registry_id, c);
  return lists.flatMap((list) => eventsOfList(byId, release, list, now));
}

function eventsOfList(byId: ReadonlyMap<string, ReleaseChange>, release: { as_of: string }, list: WatchlistRecord, now: number): OutboxEvent[] {
  const timestamp = new Date(now).toISOString();
  const events: OutboxEvent[] = [];
  for (const registryId of list.registry_ids) {
    const change = byId.get(registryId);
    const item = change && matchChange(change, list.rule);
    if (!item) continue;
    const id = eventId(list.id, release.as_of, registryId);
    const body = JSON.stringify({ type: item.type, timestamp, data: { watchlist_id: list.id, ...item } });
    events.push({ id, watchlist_id: list.id, type: item.type, registry_id: registryId, as_of: release.as_of, body, created_at: now });
  }
  return events;
}

/** The lists whose owner's account is live now (watchlistsLive); each account is asked once. */
async function liveLists(lists: WatchlistRecord[], accounts: (id: string) => Promise<Account | null>): Promise<WatchlistRecord[]> {
  const live = new Map<string, boolean>();
  for (const id of new Set(lists.map((l) => l.account_id))) live.set(id, watchlistsLive(await accounts(id)));
  return lists.filter((l) => live.get(l.account_id));
}

/**
 * Watched IDs looked up, or events queued, per event-loop turn. The reload that serves a new
 * release runs this in the serving process: a million watched IDs done in one piece would stall
 * every request for the whole piece; in pieces of PER_TURN each stall is short.
 */
const PER_TURN = 2_000;

/**
 * The events of one release for `lists`, queued list by list in pieces, with a turn of the event
 * loop between pieces. Each ID is looked up once however many lists watch it. Returns [made, new].
 */
async function queueRelease(o: { index: FacilityIndex; watch: WatchStore; now: number }, release: { seq: number; as_of: string }, lists: WatchlistRecord[]): Promise<[number, number]> {
  const byId = new Map<string, ReleaseChange>();
  const looked = new Set<string>();
  let made = 0;
  let added = 0;
  for (const list of lists) {
    for (let i = 0; i < list.registry_ids.length; i += PER_TURN) {
      const fresh = list.registry_ids.slice(i, i + PER_TURN).filter((id) => !looked.has(id));
      for (const id of fresh) looked.add(id);
      if (fresh.length > 0) for (const c of o.index.changesInReleaseFor(release.seq, fresh)) byId.set(c.registry_id, c);
      await nextTurn();
    }
    const events = eventsOfList(byId, release, list, o.now);
    for (let i = 0; i < events.length; i += PER_TURN) {
      added += await o.watch.enqueue(events.slice(i, i + PER_TURN), o.now);
      await nextTurn();
    }
    made += events.length;
  }
  return [made, added];
}

/**
 * Turns every release of the served index not yet turned into events into outbox events, for the
 * lists with a webhook made before that release whose account is live (a dormant list gets no
 * events for a release loaded while it sleeps; `/changes` still shows them). A release is marked
 * done only after its events are queued, so a crash in between queues them again (same ids).
 */
export async function emitReleaseEvents(o: { index: FacilityIndex; watch: WatchStore; accounts: (id: string) => Promise<Account | null>; now: number; log: Log }): Promise<number> {
  const lists = await liveLists(await o.watch.webhookWatchlists(), o.accounts);
  let queued = 0;
  for (const release of o.index.releases()) {
    if (await o.watch.releaseDone(release.as_of)) continue;
    const watchers = lists.filter((l) => l.base_as_of < release.as_of);
    if (watchers.length > 0) {
      const [made, added] = await queueRelease(o, release, watchers);
      queued += added;
      o.log({ level: 'info', msg: 'release turned into webhook events', as_of: release.as_of, events: made, new_events: added, watchlists: watchers.length });
    }
    await o.watch.markReleaseDone(release.as_of);
  }
  return queued;
}
