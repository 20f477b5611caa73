import { AppError } from '../http/errors';
import { retryAfterSeconds, setRateLimitHeaders } from '../http/rate-limit-headers';
import { monthOf, type StateStore } from '../state/store';
import { hashKey } from './keys';
import type { Account, CountResult } from '../state/model';
import { TIER_RULES, tierRestrictedMessage, type Endpoint } from './tiers';

/** Human names of the endpoints for 403 messages (spec 7 rule 4 form). */
const ENDPOINT_NAMES: Record<Endpoint, string> = {
  facility: 'facility lookup endpoint',
  area: 'area endpoint',
  portfolio: 'portfolio endpoint',
  report: 'report endpoint',
};

// Keys are never longer than this; anything longer is rejected before hashing.
const MAX_KEY_LENGTH = 128;

/** Spec 5.1-5.3: the caller of a data endpoint, from `X-API-Key` only. */
export async function authenticate(
  store: StateStore,
  headers: { apiKey: string | null; authorization: string | null },
): Promise<Account> {
  if (headers.authorization !== null && /^\s*bearer\b/i.test(headers.authorization)) {
    throw new AppError('UNAUTHENTICATED', 'Data endpoints take an API key in the X-API-Key header; Bearer authorization is not accepted');
  }
  const key = headers.apiKey?.trim() ?? '';
  if (key === '') throw new AppError('UNAUTHENTICATED', 'Missing API key: send it in the X-API-Key header');
  const account = key.length <= MAX_KEY_LENGTH ? await store.findAccountByKeyHash(hashKey(key)) : null;
  if (!account) throw new AppError('UNAUTHENTICATED', 'Invalid API key');
  return account;
}

export function authorize(account: Account, endpoint: Endpoint): void {
  if (!TIER_RULES[account.tier].allows.includes(endpoint)) {
    throw new AppError('TIER_RESTRICTED', tierRestrictedMessage(endpoint, ENDPOINT_NAMES[endpoint]));
  }
}

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
