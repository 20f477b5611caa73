import type { Account } from '../state/model';
import type { Tier } from '../tiers';

/**
 * Watchlists per account and registry IDs per list, by tier (docs/api.md). Free has none (403).
 * 10,000 IDs is the size the release-event figure is measured at (scripts/bench-watch-events.ts).
 */
export const WATCHLIST_LIMITS: Record<Tier, { lists: number; idsPerList: number }> = {
  free: { lists: 0, idsPerList: 0 },
  starter: { lists: 5, idsPerList: 100 },
  platform: { lists: 20, idsPerList: 1_000 },
  enterprise: { lists: 100, idsPerList: 10_000 },
};

/**
 * Whether an account's watchlists are live: it has a live API key and its plan has watchlists.
 * Otherwise (key revoked, plan without watchlists, account gone) its lists are kept but dormant:
 * no events are made for them and queued ones are not sent, until both hold again (docs/webhooks.md).
 */
export function watchlistsLive(account: Account | null): boolean {
  return account !== null && account.key_prefix !== null && WATCHLIST_LIMITS[account.tier].lists > 0;
}
