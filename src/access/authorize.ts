import { AppError } from '../errors';
import type { Account } from '../state/model';
import { TIER_RULES, tierRestrictedMessage, type Endpoint } from '../tiers';

/** Human names of the endpoints for 403 messages (docs/api.md, Errors). */
const ENDPOINT_NAMES: Record<Endpoint, string> = {
  facility: 'facility lookup endpoint',
  area: 'area endpoint',
  portfolio: 'portfolio endpoint',
  report: 'report endpoint',
  site_report: 'site report endpoint',
  history: 'facility history endpoint',
  search: 'search endpoint',
  watchlists: 'watchlists endpoint',
  plan: 'plan endpoint',
};

/** docs/api.md, Authentication and tiers: 403 TIER_RESTRICTED when the account's tier does not cover the endpoint. */
export function authorize(account: Account, endpoint: Endpoint): void {
  if (!TIER_RULES[account.tier].allows.includes(endpoint)) {
    throw new AppError('TIER_RESTRICTED', tierRestrictedMessage(endpoint, ENDPOINT_NAMES[endpoint]));
  }
}
