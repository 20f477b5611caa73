import { t, type Static } from '../shared/typebox';
import { Envelope } from '../shared/envelope';
import { monthlyLimitOf } from '../access/quota';
import type { Account } from '../state/model';
import { monthOf, type StateStore } from '../state/store';
import { TIER_RULES, Tier, type Endpoint } from '../tiers';

const DataEndpoint = t.Union([
  t.Literal('facility'),
  t.Literal('history'),
  t.Literal('search'),
  t.Literal('area'),
  t.Literal('portfolio'),
  t.Literal('report'),
  t.Literal('site_report'),
  t.Literal('watchlists'),
]);

/** What the calling key's plan lets it do, and its month so far: what a client (the web page) shows or hides. */
export const KeyPlan = t.Object({
  tier: Tier,
  plan: t.String({ description: 'Human name of the tier', examples: ['Starter'] }),
  endpoints: t.Array(DataEndpoint, { description: 'The data endpoints this plan may call (facility, history, search, area, portfolio, report, site_report, watchlists)' }),
  full_components: t.Boolean({ description: 'false: lookups redact the score breakdown, programs, peers and explanation (Free)' }),
  portfolio_batch: t.Integer({ minimum: 0, description: 'Most registry IDs per portfolio call; 0: no portfolio' }),
  month: t.String({ pattern: '^\\d{4}-\\d{2}$', description: 'Calendar month (UTC) being counted', examples: ['2026-11'] }),
  calls_this_month: t.Integer({ minimum: 0 }),
  monthly_limit: t.Integer({ minimum: 0 }),
  calls_remaining: t.Integer({ minimum: 0 }),
});
export type KeyPlan = Static<typeof KeyPlan>;
export const KeyPlanResponse = Envelope(KeyPlan);

const SHOWN = ['facility', 'history', 'search', 'area', 'portfolio', 'report', 'site_report', 'watchlists'] as const satisfies readonly Endpoint[];

export async function keyPlan(store: StateStore, account: Account, now: number): Promise<KeyPlan> {
  const rule = TIER_RULES[account.tier];
  const used = await store.monthlyUsage(account.id, now);
  const limit = monthlyLimitOf(account);
  return {
    tier: account.tier,
    plan: rule.label,
    endpoints: SHOWN.filter((e) => rule.allows.includes(e)),
    full_components: rule.fullComponents,
    portfolio_batch: rule.portfolioBatch,
    month: monthOf(now).month,
    calls_this_month: used,
    monthly_limit: limit,
    calls_remaining: Math.max(0, limit - used),
  };
}
