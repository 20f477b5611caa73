import { errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { TIERS, type Tier } from '../tiers';
import type { Log } from '../log';
import type { JwtConfig } from '../jwt-config';
import { fileJwks, JwtSourceUnavailable, remoteJwks } from './jwt-keys';

export { JwtSourceUnavailable } from './jwt-keys';

export type JwtMode = 'jwks-url' | 'jwks-file' | 'hs256' | 'off';

/** Who a verified token speaks for. `tier` is set only by a configured claim mapping. */
export type JwtIdentity = { subject: string; name: string; tier: Tier | null };

/** Token refused. `reason` is for the server log only; the client gets one generic 401. */
export class JwtRejected extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'JwtRejected';
  }
}

export type JwtVerifier = {
  readonly mode: JwtMode;
  /** Resolves the identity, or throws JwtRejected (401) or JwtSourceUnavailable (503). */
  verify(token: string, now: number): Promise<JwtIdentity>;
};

export const ASYMMETRIC_ALGS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];
export const HMAC_ALGS = ['HS256', 'HS384', 'HS512'];
const MIN_SECRET_BYTES = 32;
// Far above any real IdP token; refuses megabyte headers before any base64 or crypto work.
const MAX_TOKEN_CHARS = 8192;
const MAX_SUBJECT_CHARS = 255;

const DEFAULT_MAX_LIFETIME_SEC = 24 * 3600;

/** Longest `exp` past now a token may carry (FCS_JWT_MAX_LIFETIME_SEC, default 24 h). */
export function maxLifetimeOf(c: JwtConfig): number {
  return c.maxLifetimeSec ?? DEFAULT_MAX_LIFETIME_SEC;
}

/**
 * `exp` (and `nbf`/`iat` when present) must be whole seconds, and `exp` no further out than the
 * longest lifetime allowed: a token with `"exp": 1e309` (Infinity once parsed) would never expire.
 */
function checkTimeClaims(payload: JWTPayload, now: number, maxAheadSec: number): void {
  for (const claim of ['exp', 'nbf', 'iat'] as const) {
    const v = payload[claim];
    if (v !== undefined && !Number.isSafeInteger(v)) throw new JwtRejected(`${claim} claim is not a whole number of seconds: ${String(v)}`);
  }
  if ((payload.exp as number) > now / 1000 + maxAheadSec) throw new JwtRejected(`exp claim is more than ${maxAheadSec} s in the future`);
}

/** Which key source the config selects; throws when more than one is set. */
export function jwtModeOf(c: JwtConfig): JwtMode {
  const set = [c.jwksUrl && 'jwks-url', c.jwksFile && 'jwks-file', c.secret && 'hs256'].filter(Boolean) as JwtMode[];
  if (set.length > 1) throw new Error(`configure one JWT key source, not ${set.length} (FCS_JWT_JWKS_URL, FCS_JWT_JWKS_FILE, FCS_JWT_SECRET)`);
  return set[0] ?? 'off';
}

/** Allowed algorithms for the mode. HMAC and public-key algorithms never mix: that mix is what
 * lets a token signed with the public key as an HMAC secret pass (algorithm confusion). */
export function algorithmsFor(mode: JwtMode, configured: string[] | undefined): string[] {
  const family = mode === 'hs256' ? HMAC_ALGS : ASYMMETRIC_ALGS;
  const algs = configured?.length ? configured : mode === 'hs256' ? ['HS256'] : ASYMMETRIC_ALGS;
  const wrong = algs.filter((a) => !family.includes(a));
  if (wrong.length > 0) {
    throw new Error(`JWT algorithms ${wrong.join(', ')} cannot be used with ${mode === 'hs256' ? 'a shared secret' : 'a JWKS'}; allowed: ${family.join(', ')}`);
  }
  return algs;
}

/** The shared secret as an HMAC key; refuses one too short to resist guessing. */
export function hmacKeyOf(c: JwtConfig): Uint8Array {
  const key = new TextEncoder().encode(c.secret ?? '');
  if (key.byteLength < MIN_SECRET_BYTES) throw new Error(`FCS_JWT_SECRET must be at least ${MIN_SECRET_BYTES} bytes`);
  return key;
}

/**
 * Plan from the configured claim: a string or a list of strings (roles); the highest mapped tier
 * wins. No claim: null (the recorded tier stands). A claim with no mapped value refuses the token
 * (401); only the map's own entries count, so "constructor" or "__proto__" is as unmapped as any other.
 */
export function tierFromClaims(payload: JWTPayload, c: JwtConfig): Tier | null {
  if (!c.tierClaim) return null;
  const raw = payload[c.tierClaim];
  // no claim at all: the token says nothing of the plan, and the recorded tier stands
  if (raw === undefined) return null;
  const values = (Array.isArray(raw) ? raw : [raw]).filter((v): v is string => typeof v === 'string');
  const map = c.tierMap;
  // only the map's own entries count (Object.hasOwn): a value named like an Object property maps to nothing
  const tiers = values.map((v) => (map ? (Object.hasOwn(map, v) ? map[v] : undefined) : (TIERS as readonly string[]).includes(v) ? (v as Tier) : undefined));
  const best = tiers.filter((x): x is Tier => x !== undefined).sort((a, b) => TIERS.indexOf(b) - TIERS.indexOf(a))[0];
  // a plan the operator has not mapped is refused, never guessed: the token is not good for this service
  if (best === undefined) throw new JwtRejected(`${c.tierClaim} claim has no mapped value (${values.slice(0, 5).join(', ') || typeof raw})`);
  return best;
}

function displayNameOf(p: JWTPayload): string {
  const v = [p.name, p.email, p.preferred_username].find((x) => typeof x === 'string' && x.trim() !== '') as string | undefined;
  return (v ?? '').trim().slice(0, 200);
}

/**
 * The account-login verifier the config describes. Reads a JWKS file now (so a bad file stops the
 * start); a JWKS URL is fetched on first use. `exp` and `sub` are required; `iss`/`aud` are checked
 * when configured; `currentDate` comes from the app clock so tests can fix time.
 */
export function createJwtVerifier(c: JwtConfig, log: Log): JwtVerifier {
  const mode = jwtModeOf(c);
  if (mode === 'off') {
    return { mode, verify: async () => { throw new JwtRejected('account login is not configured'); } };
  }
  const algorithms = algorithmsFor(mode, c.algorithms);
  let key: JWTVerifyGetKey | Uint8Array;
  if (mode === 'hs256') {
    key = hmacKeyOf(c);
  } else if (mode === 'jwks-url') {
    key = remoteJwks(c.jwksUrl!, { cooldownMs: c.jwksCooldownMs ?? 30_000, cacheMaxAgeMs: c.jwksCacheMaxAgeMs ?? 600_000 });
  } else {
    key = fileJwks(c.jwksFile!, log);
  }
  const options = {
    algorithms,
    issuer: c.issuer,
    audience: c.audience?.length ? c.audience : undefined,
    clockTolerance: c.clockToleranceSec ?? 30,
    requiredClaims: ['exp', 'sub'],
  };
  const maxLifetimeSec = maxLifetimeOf(c);
  return {
    mode,
    async verify(token, now) {
      if (token.length > MAX_TOKEN_CHARS) throw new JwtRejected(`token longer than ${MAX_TOKEN_CHARS} characters`);
      let payload: JWTPayload;
      try {
        const opts = { ...options, currentDate: new Date(now) };
        payload = (await jwtVerify(token, key, opts)).payload;
      } catch (e) {
        if (e instanceof JwtSourceUnavailable) throw e;
        throw new JwtRejected(e instanceof errors.JOSEError ? `${e.code}: ${e.message}` : `${(e as Error).name}: ${(e as Error).message}`);
      }
      checkTimeClaims(payload, now, maxLifetimeSec + options.clockTolerance);
      const sub = payload.sub;
      if (typeof sub !== 'string' || sub.trim() === '' || sub.length > MAX_SUBJECT_CHARS) throw new JwtRejected('sub claim is empty or too long');
      return { subject: sub, name: displayNameOf(payload), tier: tierFromClaims(payload, c) };
    },
  };
}
