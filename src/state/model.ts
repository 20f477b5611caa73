import { t, type Static } from '../shared/typebox';
import { Tier } from '../tiers';

export const Account = t.Object({
  id: t.String(),
  name: t.String(),
  /** Identity-provider subject (JWT `sub`), or '' for keys made by the admin CLI without one. */
  subject: t.String(),
  tier: Tier,
  /** Per-account monthly cap; null = the tier's default. */
  monthly_limit: t.Union([t.Integer({ minimum: 0 }), t.Null()]),
  created_at: t.String(),
  /** Display prefix of the live key (never the key), null when it has none. */
  key_prefix: t.Union([t.String(), t.Null()]),
  key_created_at: t.Union([t.String(), t.Null()]),
});
export type Account = Static<typeof Account>;

/** Outcome of one atomic check-and-count against a cap. */
export const CountResult = t.Object({
  allowed: t.Boolean(),
  used: t.Integer(),
  limit: t.Integer(),
  /** Epoch ms when the window (calendar month, or the oldest hit of a rolling window) frees up. */
  resetAt: t.Number(),
});
export type CountResult = Static<typeof CountResult>;

export const RegenerateResult = t.Union([
  t.Object({ ok: t.Literal(true) }),
  t.Object({ ok: t.Literal(false), reason: t.Literal('no_key') }),
  t.Object({ ok: t.Literal(false), reason: t.Literal('throttled'), retryAfterSec: t.Integer() }),
]);
export type RegenerateResult = Static<typeof RegenerateResult>;

/** Outcome of issuing the first key of a subject: the account (created when new), or a live key already exists. */
export const IssueResult = t.Union([
  t.Object({ ok: t.Literal(true), account: Account, created: t.Boolean() }),
  t.Object({ ok: t.Literal(false), reason: t.Literal('key_exists'), account: Account }),
]);
export type IssueResult = Static<typeof IssueResult>;
