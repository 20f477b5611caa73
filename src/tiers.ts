import { t, type Static } from './shared/typebox';

export const Tier = t.Union([t.Literal('free'), t.Literal('starter'), t.Literal('platform'), t.Literal('enterprise')]);
export type Tier = Static<typeof Tier>;
export const TIERS: readonly Tier[] = ['free', 'starter', 'platform', 'enterprise'];

/** Authenticated data endpoints, as named in the tier table; `plan` is the key's own plan (every tier, never counted). */
export type Endpoint = 'facility' | 'area' | 'portfolio' | 'report' | 'site_report' | 'history' | 'watchlists' | 'search' | 'plan';

type TierRule = {
  label: string;
  /** Endpoints this tier may call. */
  allows: readonly Endpoint[];
  /** Free components are redacted (docs/api.md, Authentication and tiers). */
  fullComponents: boolean;
  /** Max IDs per portfolio call; 0 = portfolio not allowed. */
  portfolioBatch: number;
  /** Default monthly call cap (per-account override: `keys set-limit`). */
  monthlyCalls: number;
  /** What a caller over the cap gets: Free 402 QUOTA_EXHAUSTED, paid tiers 429 (docs/api.md, Monthly quota). */
  overCap: 'QUOTA_EXHAUSTED' | 'RATE_LIMIT_EXCEEDED';
};

/** The tier table of docs/api.md (Authentication and tiers; Monthly quota) as one table. */
export const TIER_RULES: Record<Tier, TierRule> = {
  free: { label: 'Free', allows: ['facility', 'plan'], fullComponents: false, portfolioBatch: 0, monthlyCalls: 10, overCap: 'QUOTA_EXHAUSTED' },
  starter: { label: 'Starter', allows: ['facility', 'area', 'portfolio', 'history', 'watchlists', 'search', 'plan'], fullComponents: true, portfolioBatch: 10, monthlyCalls: 10_000, overCap: 'RATE_LIMIT_EXCEEDED' },
  platform: { label: 'Platform', allows: ['facility', 'area', 'portfolio', 'report', 'site_report', 'history', 'watchlists', 'search', 'plan'], fullComponents: true, portfolioBatch: 60, monthlyCalls: 100_000, overCap: 'RATE_LIMIT_EXCEEDED' },
  enterprise: { label: 'Enterprise / Consulting', allows: ['facility', 'area', 'portfolio', 'report', 'site_report', 'history', 'watchlists', 'search', 'plan'], fullComponents: true, portfolioBatch: 500, monthlyCalls: 1_000_000, overCap: 'RATE_LIMIT_EXCEEDED' },
};

/** The 403 wording (docs/api.md, Errors): "requires a <lowest allowed plan> plan or above". */
export function tierRestrictedMessage(endpoint: Endpoint, what: string): string {
  const lowest = TIERS.find((tier) => TIER_RULES[tier].allows.includes(endpoint));
  return `The ${what} requires a ${lowest ? TIER_RULES[lowest].label : 'higher'} plan or above`;
}
