import { Elysia } from 'elysia';
import { authenticate } from './authenticate';
import { authorize } from './authorize';
import { meterCall, quotaHeaders } from './quota';
import type { Endpoint } from '../tiers';
import type { AppDeps } from '../deps';
import { factsOf } from '../http/request-context';

/**
 * `apiKey: '<endpoint>'` on a route: authenticate (401) and check the tier (403) before input
 * validation, so an anonymous or under-tier caller learns nothing about parameters; then, after
 * validation, count the call (402/429). Rejected requests are therefore never counted.
 */
export function apiKeyAuth(deps: AppDeps) {
  return new Elysia({ name: 'api-key-auth' }).macro({
    apiKey: (endpoint: Endpoint) => ({
      async transform({ request }) {
        const account = await authenticate(deps.store, {
          apiKey: request.headers.get('x-api-key'),
          authorization: request.headers.get('authorization'),
        });
        const facts = factsOf(request);
        facts.accountId = account.id;
        facts.tier = account.tier;
        authorize(account, endpoint);
        facts.caller = account;
      },
      // Counted before the handler runs and committed before the response: a crash mid-request
      // never gives a free call, and a 200 is never forgotten.
      async resolve({ request, set }) {
        const facts = factsOf(request);
        const account = facts.caller!;
        const now = deps.clock();
        const usage = await meterCall(deps.store, account, now);
        facts.counted = true;
        quotaHeaders(usage, now, set.headers as Record<string, string>);
        return { caller: account };
      },
    }),
  });
}
