import { Elysia } from 'elysia';
import type { AppDeps } from './deps';
import { apiKeyAuth, apiKeyErrors, type ApiKeyRoute } from './http/api-key-auth';
import { metaFor } from './http/request-context';
import { KeyPlanResponse, keyPlan } from '../account/key-plan';

/** Asking what the key may do is never a call against it (the page asks on every key change). */
const PLAN: ApiKeyRoute = { endpoint: 'plan', counted: false };

export function keyPlanRoutes(deps: AppDeps) {
  return new Elysia({ name: 'key-plan-routes' }).use(apiKeyAuth(deps)).get(
    '/api/v1/plan',
    async ({ caller, facts, set }) => {
      // this month's count of calls: never kept by a cache
      set.headers['cache-control'] = 'no-store';
      return { data: await keyPlan(deps.store, caller, deps.clock()), meta: metaFor(facts, deps.clock) };
    },
    {
      apiKey: PLAN,
      response: { 200: KeyPlanResponse, ...apiKeyErrors(PLAN) },
      detail: {
        tags: ['Account'],
        summary: "The calling API key's plan: what it may call, and its calls this month",
        description:
          'Every tier; not counted against the monthly quota. `endpoints` lists the data endpoints the plan covers (the others answer ' +
          '403), `full_components: false` says lookups come redacted (Free). Clients use it to offer only what the key can use. `Cache-Control: no-store`.',
        security: [{ apiKey: [] }],
      },
    },
  );
}
