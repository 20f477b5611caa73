import { t, type Static } from '../shared/typebox';
import { Tier } from '../tiers';
import { Envelope } from '../shared/envelope';

const DateTime = t.String({ format: 'date-time', examples: ['2026-11-15T12:00:00.000Z'] });

/** A key as handed out by the account API: the only time the full key ever leaves the server. */
export const IssuedKey = t.Object(
  {
    key: t.String({
      pattern: '^fcs_live_[0-9A-Za-z]{32}$',
      description: 'The API key, for the X-API-Key header. Shown only in this response and never again: store it now.',
      examples: ['fcs_live_3kQ9ZpT1xW7mB2cN8vR4yH6uL0aS5dEf'],
    }),
    key_prefix: t.String({ description: 'First characters of the key, as later shown by GET /api/v1/account', examples: ['fcs_live_3kQ9Zp'] }),
    key_created_at: DateTime,
    account_id: t.String({ examples: ['acct_4f1c9a7b2e3d5f60'] }),
    tier: Tier,
  },
  { description: 'A freshly issued API key (shown once)' },
);
export type IssuedKey = Static<typeof IssuedKey>;

/** What the account page shows: plan, key prefix (never the key) and this month's usage. */
export const AccountOverview = t.Object(
  {
    account_id: t.String({ examples: ['acct_4f1c9a7b2e3d5f60'] }),
    subject: t.String({ description: 'The JWT `sub` this account belongs to' }),
    tier: Tier,
    plan: t.String({ description: 'Human name of the tier', examples: ['Starter'] }),
    key_prefix: t.Union([t.String(), t.Null()], { description: 'First characters of the live key; null when the account has none (revoked)' }),
    key_created_at: t.Union([DateTime, t.Null()]),
    month: t.String({ pattern: '^\\d{4}-\\d{2}$', description: 'Calendar month (UTC) being counted', examples: ['2026-11'] }),
    calls_this_month: t.Integer({ minimum: 0, description: 'Data-endpoint calls counted this month (account endpoints are not counted)' }),
    monthly_limit: t.Integer({ minimum: 0, description: "The account's monthly cap: its own limit when one is set, else the tier default" }),
    calls_remaining: t.Integer({ minimum: 0 }),
    resets_at: t.String({ format: 'date-time', description: 'Start of the next calendar month (UTC), when the count returns to 0' }),
    created_at: DateTime,
  },
  { description: 'The caller’s account (GET /api/v1/account)' },
);
export type AccountOverview = Static<typeof AccountOverview>;

export const IssuedKeyResponse = Envelope(IssuedKey);
export const AccountResponse = Envelope(AccountOverview);
