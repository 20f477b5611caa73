import { Elysia } from 'elysia';
import { authenticate } from '../../access/authenticate';
import { authorize } from '../../access/authorize';
import { meterCall, quotaHeaders } from '../../access/quota';
import { TIER_RULES, TIERS, type Endpoint } from '../../tiers';
import type { ErrorCode } from '../../errors';
import type { Account } from '../../state/model';
import type { StateStore } from '../../state/store';
import { errorResponses } from '../../shared/envelope';
import { requestContext, type RequestFacts } from './request-context';

/**
 * Step 3 of the pipeline: reads and checks a route's input once the caller is known. `check`
 * throws an AppError of one of `codes` (400/413/422) or returns the checked input, which the
 * handler gets as `input` (typed by `from`).
 */
export type InputCheck<I = unknown> = {
  codes: readonly ErrorCode[];
  check(ctx: { request: Request; body: unknown; caller: Account }): I;
  /** The handler's typed view of `input`. */
  from(input: unknown): I;
};

export function inputCheck<I>(codes: readonly ErrorCode[], check: InputCheck<I>['check']): InputCheck<I> {
  return { codes, check, from: (input) => input as I };
}

/**
 * What a route declares: which tier-table endpoint it is, how its input is checked (if it has one),
 * and `counted: false` for housekeeping that never counts against the monthly quota (watchlist
 * management, docs/api.md): steps 1-3 as for any route, no step 4, no 402/429.
 */
export type ApiKeyRoute = { endpoint: Endpoint; input?: InputCheck; counted?: boolean };

// What the transform found, for the resolve of the same request, on Elysia's context (next to the
// request's `facts`, which `requestContext` puts there).
type PipelineContext = { facts: RequestFacts; caller?: Account; input?: unknown };

function routeOf(declared: Endpoint | ApiKeyRoute): ApiKeyRoute {
  return typeof declared === 'string' ? { endpoint: declared } : declared;
}

/**
 * The error responses of a route declared with `apiKey`, derived from the declaration and the
 * tier table: 401 always; 403 when some tier may not call the endpoint; the input check's codes;
 * 402 / 429 as the over-cap answers of the tiers that may call it; 500 and 503 (state store down);
 * then the route's own (`extra`, e.g. NOT_FOUND).
 */
export function apiKeyErrors(declared: Endpoint | ApiKeyRoute, ...extra: ErrorCode[]) {
  const route = routeOf(declared);
  const allowed = TIERS.filter((tier) => TIER_RULES[tier].allows.includes(route.endpoint));
  const codes: ErrorCode[] = ['UNAUTHENTICATED'];
  if (allowed.length < TIERS.length) codes.push('TIER_RESTRICTED');
  codes.push(...(route.input?.codes ?? []));
  if (route.counted !== false) for (const overCap of new Set(allowed.map((tier) => TIER_RULES[tier].overCap))) codes.push(overCap);
  codes.push('INTERNAL_ERROR', 'SERVICE_UNAVAILABLE', ...extra);
  return errorResponses(...codes);
}

/**
 * The API-key pipeline, `apiKey: <endpoint or ApiKeyRoute>` on a route, in this order:
 * 1. authenticate (401) and 2. check the tier (403), in `transform`, before Elysia validates
 *    anything, so an anonymous or under-tier caller learns nothing about parameters;
 * 3. check the input (400/413/422, `route.input`), still before counting;
 * 4. after validation, count the call (402/429) and set the quota headers.
 * A rejected request is therefore never counted; a counted one that ends in a 5xx is given back by
 * the error handler (`facts.counted`).
 */
export function apiKeyAuth(deps: { store: StateStore; clock: () => number }) {
  // requestContext is applied after the macro: before it, its decorator hides the macro's `resolve` types.
  return new Elysia({ name: 'api-key-auth' })
    .macro({
    apiKey: (declared: Endpoint | ApiKeyRoute) => {
      const route = routeOf(declared);
      return {
        async transform(ctx) {
          const caller = await authenticate(deps.store, {
            apiKey: ctx.request.headers.get('x-api-key'),
            authorization: ctx.request.headers.get('authorization'),
          });
          const found = ctx as unknown as PipelineContext;
          found.facts.accountId = caller.id;
          found.facts.tier = caller.tier;
          authorize(caller, route.endpoint);
          found.caller = caller;
          if (route.input) found.input = route.input.check({ request: ctx.request, body: ctx.body, caller });
        },
        // Counted before the handler runs and committed before the response: a crash mid-request
        // never gives a free call, and a 200 is never forgotten.
        async resolve(ctx) {
          const { caller, input, facts } = ctx as unknown as PipelineContext;
          if (route.counted === false) return { caller: caller!, input };
          const now = deps.clock();
          const usage = await meterCall(deps.store, caller!, now);
          facts.counted = true;
          quotaHeaders(usage, now, ctx.set.headers as Record<string, string>);
          return { caller: caller!, input };
        },
      };
    },
  })
    .use(requestContext);
}
