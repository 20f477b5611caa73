import type { Tier } from '../../accounts/tiers';
import type { Account } from '../model';

/** Redis hands back a hash as an object (HGETALL) or as a flat [field, value, ...] list (from Lua). */
export function fieldsOf(reply: unknown): Record<string, string> {
  if (Array.isArray(reply)) {
    const out: Record<string, string> = {};
    for (let i = 0; i + 1 < reply.length; i += 2) out[String(reply[i])] = String(reply[i + 1]);
    return out;
  }
  return reply && typeof reply === 'object' ? { ...(reply as Record<string, string>) } : {};
}

/** An account hash as an Account; '' stands for null (Redis hashes hold strings only). */
export function accountOf(f: Record<string, string>): Account | null {
  if (!f.id) return null;
  const orNull = (v: string | undefined) => (v === undefined || v === '' ? null : v);
  const limit = orNull(f.monthly_limit);
  return {
    id: f.id,
    name: f.name ?? '',
    subject: f.subject ?? '',
    tier: f.tier as Tier,
    monthly_limit: limit === null ? null : Number(limit),
    created_at: f.created_at ?? '',
    key_prefix: orNull(f.key_prefix),
    key_created_at: orNull(f.key_created_at),
  };
}

/** Same id shape as the SQLite store. */
export function newAccountId(): string {
  return `acct_${crypto.randomUUID().replaceAll('-', '').slice(0, 16)}`;
}
