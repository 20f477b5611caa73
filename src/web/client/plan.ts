import { getJson } from './api';
import { readKey } from './key';

/** What the key's plan covers (GET /api/v1/plan, never counted). */
export type Plan = { tier: string; plan: string; endpoints: string[]; full_components: boolean };

let asked: { key: string; plan: Promise<Plan | null> } | null = null;

/**
 * The plan of the key in use, asked once per key: null without a key, or when the server does not
 * answer it (an older server, a key it refuses), in which case the page offers everything and shows
 * the API's own sentence where the plan does not reach.
 */
export function keyPlan(): Promise<Plan | null> {
  const key = readKey();
  if (!key) return Promise.resolve(null);
  if (asked?.key !== key) {
    asked = { key, plan: getJson<Plan>('/api/v1/plan').then((r) => (r.ok && Array.isArray(r.data.endpoints) ? r.data : null)) };
  }
  return asked.plan;
}

/** Whether the plan covers `endpoint`; an unknown plan covers everything (the API answers for itself). */
export function covers(plan: Plan | null, endpoint: string): boolean {
  return plan === null || plan.endpoints.includes(endpoint);
}

/** The lowest plan that covers an endpoint, in the API's 403 wording. */
export const LOWEST_PLAN: Record<string, string> = { search: 'Starter', area: 'Starter', history: 'Starter', watchlists: 'Starter', portfolio: 'Starter', report: 'Platform', site_report: 'Platform' };
