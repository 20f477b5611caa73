import { Elysia } from 'elysia';
import type { AppDeps } from '../deps';
import { AppError } from '../../errors';
import { requestContext } from './request-context';
import { JwtRejected, JwtSourceUnavailable, type JwtIdentity, type JwtVerifier } from '../../account/jwt';

const REALM = 'Bearer realm="facility-score account"';
// One message for every refused token: which check failed (signature, alg, aud, iss, exp, nbf) is
// for our log, not for whoever is probing with forged tokens.
const INVALID_TOKEN = 'Invalid or expired account token: sign in again to get a fresh one';
const SOURCE_RETRY_SEC = 10;

function bearerTokenOf(header: string | null): string | null {
  const m = header?.match(/^\s*Bearer\s+([^\s]+)\s*$/i);
  return m ? m[1]! : null;
}

/** Checks the Bearer JWT of an account request; the reason for a refusal goes to the log only. */
async function identify(deps: Pick<AppDeps, 'clock' | 'log'>, verifier: JwtVerifier, request: Request, requestId: string): Promise<JwtIdentity> {
  if (verifier.mode === 'off') {
    throw new AppError(
      'UNAUTHENTICATED',
      'Account login is not configured on this server; API keys are issued by its operator (facility-score keys create)',
      { 'www-authenticate': REALM },
    );
  }
  const token = bearerTokenOf(request.headers.get('authorization'));
  if (token === null) {
    throw new AppError('UNAUTHENTICATED', 'Account endpoints need a JWT from your identity provider: send Authorization: Bearer <token>', {
      'www-authenticate': REALM,
    });
  }
  try {
    return await verifier.verify(token, deps.clock());
  } catch (e) {
    if (e instanceof JwtSourceUnavailable) {
      deps.log({ level: 'error', msg: 'account token key source unavailable', request_id: requestId, reason: e.reason });
      throw new AppError('SERVICE_UNAVAILABLE', 'Account login is temporarily unavailable; retry shortly', { 'retry-after': String(SOURCE_RETRY_SEC) });
    }
    const reason = e instanceof JwtRejected ? e.reason : `unexpected ${(e as Error)?.name}: ${(e as Error)?.message}`;
    deps.log({ level: 'warn', msg: 'account token rejected', request_id: requestId, reason });
    throw new AppError('UNAUTHENTICATED', INVALID_TOKEN, { 'www-authenticate': `${REALM}, error="invalid_token"` });
  }
}

/**
 * `accountJwt: true` on a route: verifies `Authorization: Bearer <jwt>` and hands the handler
 * `identity`. Account responses carry keys or personal usage, so none of them may be cached.
 * Not metered: account endpoints never count against the monthly quota.
 */
export function accountJwtAuth(deps: Pick<AppDeps, 'clock' | 'log'>, verifier: JwtVerifier) {
  return new Elysia({ name: 'account-jwt-auth' }).use(requestContext).macro({
    accountJwt: {
      async resolve({ request, set, facts }) {
        set.headers['cache-control'] = 'no-store';
        set.headers.pragma = 'no-cache';
        return { identity: await identify(deps, verifier, request, facts.id) };
      },
    },
  });
}
