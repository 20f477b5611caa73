import { Elysia } from 'elysia';
import type { AppDeps } from './deps';
import { errorResponses } from '../shared/envelope';
import { metaFor } from './http/request-context';
import { accountJwtAuth } from './http/account-auth';
import { AccountResponse, IssuedKeyResponse } from '../account/model';
import { accountOverview, issueFirstKey, regenerateKey } from '../account/service';

const SECURITY = [{ accountJwt: [] }];
const AUTH_NOTE =
  'Authenticated with a JWT from the identity provider (`Authorization: Bearer <jwt>`), not with an API key; ' +
  'a missing, invalid or expired token is 401 UNAUTHENTICATED. Not counted against the monthly quota. ' +
  'Responses carry `Cache-Control: no-store`.';

/** docs/accounts.md: the account page's endpoints (key issue, regeneration, usage). */
export function accountRoutes(deps: AppDeps) {
  // Built once per process by serve (src/api/deps.ts), so a reload keeps the JWKS cache.
  return new Elysia({ name: 'account-routes' })
    .use(accountJwtAuth(deps, deps.jwtVerifier))
    .post(
      '/api/v1/account/key',
      async ({ identity, facts, status }) => {
        const { issued, created } = await issueFirstKey(deps.store, identity, deps.config.signupTier, deps.clock());
        Object.assign(facts, { accountId: issued.account_id, tier: issued.tier });
        deps.log({ level: 'info', msg: created ? 'account created with first key' : 'first key issued', account_id: issued.account_id, key_prefix: issued.key_prefix });
        return status(201, { data: issued, meta: metaFor(facts, deps.clock) });
      },
      {
        accountJwt: true,
        response: { 201: IssuedKeyResponse, ...errorResponses('UNAUTHENTICATED', 'KEY_EXISTS', 'INTERNAL_ERROR', 'SERVICE_UNAVAILABLE') },
        detail: {
          tags: ['Account'],
          summary: 'Issue the first API key of the signed-in user',
          description:
            'Creates the account of the JWT `sub` on first use (tier: the configured sign-up tier, or the mapped tier claim) and ' +
            'returns its API key **once** (201). When the account already has a live key: 409 KEY_EXISTS (use regenerate). ' +
            AUTH_NOTE,
          security: SECURITY,
        },
      },
    )
    .post(
      '/api/v1/account/key/regenerate',
      async ({ identity, facts }) => {
        const issued = await regenerateKey(deps.store, identity, deps.clock());
        Object.assign(facts, { accountId: issued.account_id, tier: issued.tier });
        deps.log({ level: 'info', msg: 'key regenerated', account_id: issued.account_id, key_prefix: issued.key_prefix });
        return { data: issued, meta: metaFor(facts, deps.clock) };
      },
      {
        accountJwt: true,
        response: { 200: IssuedKeyResponse, ...errorResponses('UNAUTHENTICATED', 'NOT_FOUND', 'REGENERATE_THROTTLED', 'INTERNAL_ERROR', 'SERVICE_UNAVAILABLE') },
        detail: {
          tags: ['Account'],
          summary: 'Replace the API key (the old one stops working at once)',
          description:
            'Returns a new key **once**; the old key answers 401 on its very next call. No account or no live key yet: 404 NOT_FOUND. ' +
            'Within 60 s of the previous regeneration: 429 REGENERATE_THROTTLED with `Retry-After` (seconds left). ' +
            AUTH_NOTE,
          security: SECURITY,
        },
      },
    )
    .get(
      '/api/v1/account',
      async ({ identity, facts }) => {
        const data = await accountOverview(deps.store, identity, deps.clock());
        Object.assign(facts, { accountId: data.account_id, tier: data.tier });
        return { data, meta: metaFor(facts, deps.clock) };
      },
      {
        accountJwt: true,
        response: { 200: AccountResponse, ...errorResponses('UNAUTHENTICATED', 'NOT_FOUND', 'INTERNAL_ERROR', 'SERVICE_UNAVAILABLE') },
        detail: {
          tags: ['Account'],
          summary: 'Plan, key prefix and this month’s usage of the signed-in user',
          description:
            'Tier, key prefix (never the key), calls counted this calendar month (UTC), the monthly limit and when it resets. ' +
            'No account yet: 404 NOT_FOUND (create one with POST /api/v1/account/key). ' +
            AUTH_NOTE,
          security: SECURITY,
        },
      },
    );
}
