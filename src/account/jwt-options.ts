import type { JwtConfig } from '../jwt-config';

/** `serve` flags for account login; each has an env equivalent (flags win). The secret is env-only. */
export const ACCOUNT_OPTIONS = {
  'jwt-jwks-url': { type: 'string' },
  'jwt-jwks-file': { type: 'string' },
  'jwt-issuer': { type: 'string' },
  'jwt-audience': { type: 'string' },
  'jwt-algorithms': { type: 'string' },
  'jwt-tier-claim': { type: 'string' },
  'jwt-tier-map': { type: 'string' },
  'signup-tier': { type: 'string' },
} as const;

export const ACCOUNT_ENV_HELP =
  'FCS_JWT_JWKS_URL | FCS_JWT_JWKS_FILE | FCS_JWT_SECRET (one of), FCS_JWT_ISSUER, FCS_JWT_AUDIENCE, FCS_JWT_ALGORITHMS, ' +
  'FCS_JWT_TIER_CLAIM, FCS_JWT_TIER_MAP, FCS_JWT_CLOCK_TOLERANCE_SEC, FCS_JWT_MAX_LIFETIME_SEC, FCS_JWKS_COOLDOWN_MS, FCS_JWKS_CACHE_MAX_AGE_MS, FCS_SIGNUP_TIER';

const list = (s: string | undefined) => (s === undefined ? undefined : s.split(',').map((x) => x.trim()).filter(Boolean));
const int = (s: string | undefined) => (s === undefined || s.trim() === '' ? undefined : Number(s));

/** `value=tier,value=tier` -> record; validation of the tiers happens in makeConfig. */
function tierMapOf(s: string | undefined): Record<string, string> | undefined {
  if (s === undefined) return undefined;
  const entries = list(s)!.map((pair) => {
    const i = pair.lastIndexOf('=');
    if (i <= 0) throw new Error(`FCS_JWT_TIER_MAP entry "${pair}" is not claim-value=tier`);
    return [pair.slice(0, i).trim(), pair.slice(i + 1).trim()];
  });
  return Object.fromEntries(entries);
}

/** JWT settings from env and flags; unset values stay absent so jwt.ts applies its defaults. */
export function jwtConfigFrom(env: Record<string, string | undefined>, flags: Record<string, unknown>): JwtConfig {
  const str = (flag: string, envName: string) => ((flags[flag] as string | undefined) ?? env[envName]) || undefined;
  const c = {
    jwksUrl: str('jwt-jwks-url', 'FCS_JWT_JWKS_URL'),
    jwksFile: str('jwt-jwks-file', 'FCS_JWT_JWKS_FILE'),
    secret: env.FCS_JWT_SECRET || undefined,
    issuer: str('jwt-issuer', 'FCS_JWT_ISSUER'),
    audience: list(str('jwt-audience', 'FCS_JWT_AUDIENCE')),
    algorithms: list(str('jwt-algorithms', 'FCS_JWT_ALGORITHMS')),
    clockToleranceSec: int(env.FCS_JWT_CLOCK_TOLERANCE_SEC),
    maxLifetimeSec: int(env.FCS_JWT_MAX_LIFETIME_SEC),
    jwksCooldownMs: int(env.FCS_JWKS_COOLDOWN_MS),
    jwksCacheMaxAgeMs: int(env.FCS_JWKS_CACHE_MAX_AGE_MS),
    tierClaim: str('jwt-tier-claim', 'FCS_JWT_TIER_CLAIM'),
    tierMap: tierMapOf(str('jwt-tier-map', 'FCS_JWT_TIER_MAP')),
  };
  return Object.fromEntries(Object.entries(c).filter(([, v]) => v !== undefined)) as JwtConfig;
}
