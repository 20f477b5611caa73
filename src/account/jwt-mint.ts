import { SignJWT } from 'jose';
import type { JwtConfig } from '../jwt-config';
import { algorithmsFor, hmacKeyOf, jwtModeOf, maxLifetimeOf } from './jwt';

/**
 * An HMAC account token (first configured algorithm, HS256 by default) signed with the configured shared secret, for self-hosted installs with
 * no identity provider (`facility-score keys token`): whoever holds the secret can mint these, so
 * the operator hands them out. Carries the configured `iss`/first `aud` so the server accepts it.
 */
export async function mintAccountToken(c: JwtConfig, o: { subject: string; ttlSec: number; now: number; name?: string }): Promise<string> {
  if (jwtModeOf(c) !== 'hs256') throw new Error('minting tokens needs FCS_JWT_SECRET (HS256 mode); with an identity provider, tokens come from it');
  if (o.subject.trim() === '') throw new Error('--subject is required');
  // No longer than the server's maximum lifetime (FCS_JWT_MAX_LIFETIME_SEC), which refuses anything further out.
  const max = maxLifetimeOf(c);
  if (!Number.isInteger(o.ttlSec) || o.ttlSec <= 0 || o.ttlSec > max) throw new Error(`--ttl must be a whole number of seconds between 1 and ${max} (FCS_JWT_MAX_LIFETIME_SEC)`);
  // The same algorithm and secret checks as the server's verifier, so a minted token is one serve accepts.
  const alg = algorithmsFor('hs256', c.algorithms)[0]!;
  const key = hmacKeyOf(c);
  const iat = Math.floor(o.now / 1000);
  let jwt = new SignJWT(o.name ? { name: o.name } : {}).setProtectedHeader({ alg, typ: 'JWT' }).setSubject(o.subject).setIssuedAt(iat).setExpirationTime(iat + o.ttlSec);
  if (c.issuer) jwt = jwt.setIssuer(c.issuer);
  if (c.audience?.length) jwt = jwt.setAudience(c.audience[0]!);
  return jwt.sign(key);
}
