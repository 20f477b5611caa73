import type { Tier } from '../../tiers';
import type { Account } from '../model';

/**
 * The account hash fields read back, in reply order: HMGET of a fixed list is a flat array of
 * values, cheaper to send and parse than HGETALL's field/value pairs on every authenticated call.
 */
export const ACCOUNT_FIELDS = ['id', 'name', 'subject', 'tier', 'monthly_limit', 'created_at', 'key_prefix', 'key_created_at', 'key_hash'] as const;

/** The same list as a Lua table literal, for scripts. */
export const ACCOUNT_FIELDS_LUA = `{${ACCOUNT_FIELDS.map((f) => `'${f}'`).join(', ')}}`;

/** An HMGET reply (values in ACCOUNT_FIELDS order) as an Account and its live key hash; null when there is no such account. */
export function accountOf(reply: unknown): { account: Account; keyHash: string | null } | null {
  if (!Array.isArray(reply) || typeof reply[0] !== 'string' || reply[0] === '') return null;
  // Redis hashes hold strings only: '' (or a missing field) stands for null.
  const v = (i: number): string | null => (typeof reply[i] === 'string' && reply[i] !== '' ? (reply[i] as string) : null);
  const limit = v(4);
  return {
    account: {
      id: reply[0],
      name: v(1) ?? '',
      subject: v(2) ?? '',
      tier: v(3) as Tier,
      monthly_limit: limit === null ? null : Number(limit),
      created_at: v(5) ?? '',
      key_prefix: v(6),
      key_created_at: v(7),
    },
    keyHash: v(8),
  };
}
