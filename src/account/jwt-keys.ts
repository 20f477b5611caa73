import { readFileSync, statSync } from 'node:fs';
import { createLocalJWKSet, createRemoteJWKSet, errors, type JWTVerifyGetKey } from 'jose';
import type { Log } from '../log';

/** The key source could not be read (identity provider down, JWKS malformed): not the caller's fault. */
export class JwtSourceUnavailable extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'JwtSourceUnavailable';
  }
}

// What a key lookup may throw because of the token itself (unknown kid, unusable alg); anything
// else from a JWKS lookup is the key source failing.
const TOKEN_SIDE = [errors.JWKSNoMatchingKey, errors.JWKSMultipleMatchingKeys, errors.JOSENotSupported, errors.JOSEAlgNotAllowed, errors.JWSInvalid];

function reasonOf(e: unknown): string {
  if (e instanceof errors.JOSEError) return `${e.code}: ${e.message}`;
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

/**
 * The identity provider's JWKS, fetched lazily, cached for `cacheMaxAgeMs`, and refetched when a
 * token names an unknown `kid` (key rotation) at most once per `cooldownMs` (so random kids cannot
 * make us hammer the provider).
 */
export function remoteJwks(url: string, o: { cooldownMs: number; cacheMaxAgeMs: number }): JWTVerifyGetKey {
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error(`JWKS URL must be http(s): ${url}`);
  const jwks = createRemoteJWKSet(parsed, { cooldownDuration: o.cooldownMs, cacheMaxAge: o.cacheMaxAgeMs, timeoutDuration: 5000 });
  return async (header, token) => {
    try {
      return await jwks(header, token);
    } catch (e) {
      if (TOKEN_SIDE.some((cls) => e instanceof cls)) throw e;
      throw new JwtSourceUnavailable(`JWKS ${parsed.origin}${parsed.pathname}: ${reasonOf(e)}`);
    }
  };
}

/**
 * A JWKS file on disk, read at start (a missing or malformed file stops the server from starting)
 * and re-read when its mtime changes, so an operator rotates keys by replacing the file. A file
 * that turns unreadable later keeps the last good key set and logs why.
 */
export function fileJwks(path: string, log: Log): JWTVerifyGetKey {
  const load = () => {
    const mtime = statSync(path).mtimeMs;
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(path, 'utf8'));
    } catch (e) {
      throw new Error(`JWKS file ${path} is not valid JSON: ${(e as Error).message}`);
    }
    const keys = (json as { keys?: { d?: unknown; kty?: unknown }[] }).keys;
    // A private or symmetric key in a verification file is an operator mistake worth refusing loudly.
    if (Array.isArray(keys) && keys.some((k) => k && (k.d !== undefined || k.kty === 'oct'))) {
      throw new Error(`JWKS file ${path} holds private or symmetric keys; it must hold public keys only`);
    }
    try {
      return { mtime, jwks: createLocalJWKSet(json as Parameters<typeof createLocalJWKSet>[0]) };
    } catch (e) {
      throw new Error(`JWKS file ${path} is not a JSON Web Key Set: ${reasonOf(e)}`);
    }
  };
  let current = load();
  // mtime of the last version that failed to load (-1: the file was gone), so it is logged once.
  let failedMtime: number | null = null;
  return async (header, token) => {
    let mtime = -1;
    try {
      mtime = statSync(path).mtimeMs;
      if (mtime !== current.mtime && mtime !== failedMtime) current = load();
    } catch (e) {
      if (failedMtime !== mtime) log({ level: 'warn', msg: 'JWKS file reload failed; keeping the previous key set', reason: (e as Error).message });
      failedMtime = mtime;
    }
    return current.jwks(header, token);
  };
}
