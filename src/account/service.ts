import { monthlyLimitOf } from '../access/quota';
import { generateKey } from '../access/key-format';
import { TIER_RULES, type Tier } from '../tiers';
import { AppError } from '../errors';
import type { Account } from '../state/model';
import { monthOf, type StateStore } from '../state/store';
import type { JwtIdentity } from './jwt';
import type { AccountOverview, IssuedKey } from './model';

/** docs/accounts.md: one regeneration per 60 s per account. */
export const REGENERATE_THROTTLE_MS = 60_000;

function issued(account: Account, key: string): IssuedKey {
  return { key, key_prefix: account.key_prefix!, key_created_at: account.key_created_at!, account_id: account.id, tier: account.tier };
}

/** A configured tier claim wins over the record, and is written back so data calls (which carry
 * only the API key) see the same tier. Without a claim mapping the record is never touched. */
async function withClaimedTier(store: StateStore, account: Account, tier: Tier | null): Promise<Account> {
  if (tier === null || tier === account.tier) return account;
  await store.setTier(account.id, tier);
  return { ...account, tier };
}

/** The caller's account, or 404 when this subject never signed up. */
async function accountOf(store: StateStore, identity: JwtIdentity): Promise<Account> {
  const account = await store.findAccountBySubject(identity.subject);
  if (!account) throw new AppError('NOT_FOUND', 'No account for this login yet: create your API key with POST /api/v1/account/key');
  return withClaimedTier(store, account, identity.tier);
}

/** POST /account/key: the subject's first key (its account is created on the way); 409 once a key exists. */
export async function issueFirstKey(store: StateStore, identity: JwtIdentity, signupTier: Tier, now: number): Promise<{ issued: IssuedKey; created: boolean }> {
  const k = generateKey();
  const r = await store.issueFirstKey({ subject: identity.subject, name: identity.name, tier: identity.tier ?? signupTier, keyHash: k.hash, prefix: k.prefix, now });
  if (!r.ok) {
    throw new AppError(
      'KEY_EXISTS',
      `This account already has an API key (${r.account.key_prefix}…); it is shown only once. To replace it use POST /api/v1/account/key/regenerate`,
    );
  }
  const account = await withClaimedTier(store, r.account, identity.tier);
  return { issued: issued(account, k.key), created: r.created };
}

/** POST /account/key/regenerate: swaps the key atomically, so the old one is dead for the very next call. */
export async function regenerateKey(store: StateStore, identity: JwtIdentity, now: number): Promise<IssuedKey> {
  const account = await accountOf(store, identity);
  const k = generateKey();
  const r = await store.regenerateKey(account.id, k.hash, k.prefix, now, REGENERATE_THROTTLE_MS);
  if (!r.ok && r.reason === 'no_key') {
    throw new AppError('NOT_FOUND', 'This account has no API key to regenerate: create one with POST /api/v1/account/key');
  }
  if (!r.ok) {
    throw new AppError('REGENERATE_THROTTLED', `A key can be regenerated once per minute; retry in ${r.retryAfterSec} s`, {
      'retry-after': String(r.retryAfterSec),
    });
  }
  return issued({ ...account, key_prefix: k.prefix, key_created_at: new Date(now).toISOString() }, k.key);
}

/** GET /account: plan, key prefix and this month's usage. Reading it is free (not metered). */
export async function accountOverview(store: StateStore, identity: JwtIdentity, now: number): Promise<AccountOverview> {
  const account = await accountOf(store, identity);
  const { month, resetAt } = monthOf(now);
  const used = await store.monthlyUsage(account.id, now);
  const limit = monthlyLimitOf(account);
  return {
    account_id: account.id,
    subject: account.subject,
    tier: account.tier,
    plan: TIER_RULES[account.tier].label,
    key_prefix: account.key_prefix,
    key_created_at: account.key_created_at,
    month,
    calls_this_month: used,
    monthly_limit: limit,
    calls_remaining: Math.max(0, limit - used),
    resets_at: new Date(resetAt).toISOString(),
    created_at: account.created_at,
  };
}
