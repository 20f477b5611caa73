import { AppError } from '../errors';
import type { FacilityIndex } from '../index/facility-index';
import type { Account } from '../state/model';
import type { WatchStore } from '../state/watch-store';
import type { WebhookAllowList } from './webhooks/allow-list';
import { newWebhookSecret } from './webhooks/signing';
import { WATCHLIST_LIMITS } from './limits';
import type { ChangeItem, CreateBody, PatchBody, WatchedFacility, Watchlist, WatchlistRecord, WatchlistSummary, WatchlistSummaryRecord } from './model';
import type { ReleaseChange } from '../index/history-tables/release-changes';
import { matchChange } from './rules';

export type WatchDeps = { watch: WatchStore; index: FacilityIndex; allow: WebhookAllowList; now: number };

function notFound(id: string): AppError {
  // Another account's list is answered exactly like a missing one: ids of others are not confirmed.
  return new AppError('NOT_FOUND', `No watchlist ${id} on this account`);
}

/** The public shape; the secret only when it was just made (shown once). */
export function present(w: WatchlistRecord, showSecret = false): Watchlist {
  const { account_id: _a, webhook_secret, ...rest } = w;
  const shown = { ...rest, registry_id_count: w.registry_ids.length };
  return showSecret && webhook_secret ? { ...shown, webhook_secret } : shown;
}

/** A list as the account's list of watchlists shows it: no IDs, never the secret. */
export function presentSummary(w: WatchlistSummaryRecord): WatchlistSummary {
  const { account_id: _a, webhook_secret: _s, ...rest } = w;
  return rest;
}

/** One page of a list's IDs, ascending, after `cursor` (the last ID of the page before). */
export function registryIdPage(w: WatchlistRecord, cursor: string | null, limit: number): { registry_ids: string[]; next_cursor: string | null } {
  const sorted = [...w.registry_ids].sort();
  let from = 0;
  if (cursor !== null) {
    // The first ID after the cursor (binary search): a list edited between pages skips nothing and repeats nothing that stayed.
    let hi = sorted.length;
    while (from < hi) {
      const mid = (from + hi) >> 1;
      if (sorted[mid]! <= cursor) from = mid + 1;
      else hi = mid;
    }
  }
  const page = sorted.slice(from, from + limit);
  return { registry_ids: page, next_cursor: from + limit < sorted.length ? page[page.length - 1]! : null };
}

function checkedIds(ids: string[], account: Account): string[] {
  const unique = [...new Set(ids)];
  const max = WATCHLIST_LIMITS[account.tier].idsPerList;
  if (unique.length > max) throw new AppError('VALIDATION_ERROR', `registry_ids: a watchlist holds at most ${max} registry IDs on this plan (${unique.length} given)`);
  return unique;
}

/** The URL as stored (normalised), or null for none; a URL the allow-list refuses is a 422. */
function checkedUrl(url: string | null | undefined, allow: WebhookAllowList): string | null {
  return url === undefined || url === null ? null : allow.normalise(url);
}

export async function createWatchlist(d: WatchDeps, account: Account, body: CreateBody): Promise<Watchlist> {
  const url = checkedUrl(body.webhook_url, d.allow);
  const at = new Date(d.now).toISOString();
  const record: WatchlistRecord = {
    id: `wl_${crypto.randomUUID().replaceAll('-', '').slice(0, 16)}`,
    account_id: account.id,
    name: body.name,
    registry_ids: checkedIds(body.registry_ids, account),
    rule: body.rule ?? null,
    webhook_url: url,
    webhook_secret: url ? newWebhookSecret() : null,
    base_as_of: d.index.info.as_of,
    created_at: at,
    updated_at: at,
  };
  const max = WATCHLIST_LIMITS[account.tier].lists;
  if (!(await d.watch.createWatchlist(record, max))) throw new AppError('VALIDATION_ERROR', `This plan allows at most ${max} watchlists per account; delete one first`);
  return present(record, true);
}

export async function ownWatchlist(watch: WatchStore, account: Account, id: string): Promise<WatchlistRecord> {
  const w = await watch.getWatchlist(id, account.id);
  if (!w) throw notFound(id);
  return w;
}

export async function updateWatchlist(d: WatchDeps, account: Account, id: string, patch: PatchBody): Promise<Watchlist> {
  const cur = await ownWatchlist(d.watch, account, id);
  const next: WatchlistRecord = { ...cur, updated_at: new Date(d.now).toISOString() };
  if (patch.name !== undefined) next.name = patch.name;
  if (patch.registry_ids !== undefined) next.registry_ids = checkedIds(patch.registry_ids, account);
  if (patch.rule !== undefined) next.rule = patch.rule;
  if (patch.webhook_url !== undefined) {
    next.webhook_url = checkedUrl(patch.webhook_url, d.allow);
    // A list that gains a webhook gets its secret now (shown in this answer); removing the URL drops it.
    next.webhook_secret = next.webhook_url ? (cur.webhook_secret ?? newWebhookSecret()) : null;
  }
  if (!(await d.watch.updateWatchlist(next))) throw notFound(id);
  return present(next, next.webhook_secret !== null && cur.webhook_secret === null);
}

export async function deleteWatchlist(watch: WatchStore, account: Account, id: string): Promise<void> {
  if (!(await watch.deleteWatchlist(id, account.id))) throw notFound(id);
}

/** A new signing secret, effective for the next attempt; the old one stops at once. */
export async function rotateSecret(d: WatchDeps, account: Account, id: string): Promise<string> {
  const cur = await ownWatchlist(d.watch, account, id);
  if (!cur.webhook_url) throw new AppError('VALIDATION_ERROR', 'This watchlist has no webhook_url, so it has no signing secret to rotate');
  const secret = newWebhookSecret();
  if (!(await d.watch.updateWatchlist({ ...cur, webhook_secret: secret, updated_at: new Date(d.now).toISOString() }))) throw notFound(id);
  return secret;
}

/**
 * The list's matching changes in the releases after `since` (default: the newest release's
 * changes), oldest first: what its webhook would have sent, for callers without a receiver.
 */
export function watchlistChanges(index: FacilityIndex, w: WatchlistRecord, since: string | null): { since: string | null; as_of: string; changes: ChangeItem[] } {
  const releases = index.releases();
  const newest = releases[releases.length - 1]!;
  const lower = since ?? releases[releases.length - 2]?.as_of ?? null;
  const afterSeq = lower === null ? 0 : releases.filter((r) => r.as_of <= lower).reduce((m, r) => Math.max(m, r.seq), 0);
  const changes = index.changesOfIds(w.registry_ids, afterSeq, newest.seq)
    .map((c) => matchChange(c, w.rule))
    .filter((c): c is ChangeItem => c !== null);
  return { since: lower, as_of: newest.as_of, changes };
}

/** A page of the list's facilities with their names, scores and latest change (the page's list view). */
export function watchedFacilities(index: FacilityIndex, w: WatchlistRecord, cursor: string | null, limit: number): { facilities: WatchedFacility[]; next_cursor: string | null } {
  const { registry_ids, next_cursor } = registryIdPage(w, cursor, limit);
  const releases = index.releases();
  const latest = new Map<string, ReleaseChange>();
  for (const c of index.changesOfIds(registry_ids, 0, releases[releases.length - 1]!.seq)) {
    const seen = latest.get(c.registry_id);
    if (!seen || c.as_of > seen.as_of) latest.set(c.registry_id, c);
  }
  const briefs = index.getBriefs(registry_ids);
  const facilities = registry_ids.map((id) => {
    const row = briefs.get(id);
    const c = latest.get(id);
    return {
      registry_id: id,
      fac_name: row?.fac_name ?? null,
      overall_score: row?.overall_score ?? null,
      active_enforcement: row ? row.active_enforcement : null,
      data_sufficient: row ? row.data_sufficient : null,
      last_change: c ? { as_of: c.as_of, kind: c.kind, overall_score: c.overall_score, previous_score: c.previous_score } : null,
    };
  });
  return { facilities, next_cursor };
}
