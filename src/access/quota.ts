import { AppError } from '../errors';
import type { Account, CountResult } from '../state/model';
import { monthOf, type StateStore } from '../state/store';
import { TIER_RULES } from '../tiers';
import { retryAfterSeconds, setRateLimitHeaders } from './rate-limit-headers';

/**
 * The monthly quota: every authenticated data call counts once per calendar month (UTC).
 * The count itself is kept by the state store (SQLite ledger or Redis); the rule lives here.
 */
export function monthlyLimitOf(account: Account): number {
  return account.monthly_limit ?? TIER_RULES[account.tier].monthlyCalls;
}

/** Quota headers of the monthly window, set on `headers` (a new object when none is given). */
export function quotaHeaders(r: CountResult, now: number, headers: Record<string, string> = {}): Record<string, string> {
  return setRateLimitHeaders(headers, 'monthly', monthOf(now).seconds, r, now);
}

/** Counts one call against the account's monthly cap, or throws 402 (Free) / 429 (paid). */
export async function meterCall(store: StateStore, account: Account, now: number): Promise<CountResult> {
  const result = await store.consumeMonthly(account.id, monthlyLimitOf(account), now);
  if (result.allowed) return result;
  const headers = { ...quotaHeaders(result, now), 'retry-after': String(retryAfterSeconds(result, now)) };
  const rule = TIER_RULES[account.tier];
  if (rule.overCap === 'QUOTA_EXHAUSTED') {
    throw new AppError('QUOTA_EXHAUSTED', `The ${rule.label} plan's ${result.limit} calls for this month are used up; the quota resets at ${new Date(result.resetAt).toISOString()}`, headers);
  }
  throw new AppError('RATE_LIMIT_EXCEEDED', `Monthly call limit of ${result.limit} reached; it resets at ${new Date(result.resetAt).toISOString()}`, headers);
}
