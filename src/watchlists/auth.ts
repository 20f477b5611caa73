import { Elysia } from 'elysia';
import { authenticate } from '../access/authenticate';
import { authorize } from '../access/authorize';
import type { AppDeps } from '../deps';
import { factsOf } from '../http/request-context';

/**
 * `watchlistKey: true`: the API key and tier checks of the data endpoints (401, 403 on Free),
 * before input validation, but no call counted: managing a watchlist is account housekeeping,
 * not a data call (docs/api.md). Only `/changes` counts, through the ordinary `apiKey` macro.
 */
export function watchlistAuth(deps: AppDeps) {
  return new Elysia({ name: 'watchlist-auth' }).macro({
    watchlistKey: (_on: boolean) => ({
      async transform({ request }) {
        const account = await authenticate(deps.store, { apiKey: request.headers.get('x-api-key'), authorization: request.headers.get('authorization') });
        const facts = factsOf(request);
        facts.accountId = account.id;
        facts.tier = account.tier;
        authorize(account, 'watchlists');
        facts.caller = account;
      },
      resolve({ request }) {
        return { caller: factsOf(request).caller! };
      },
    }),
  });
}
