import { t, type Static } from './shared/typebox';
import { Tier } from './tiers';

/**
 * How account endpoints verify JWTs. Exactly one key source may be set: a JWKS URL (an identity
 * provider), a local JWKS file, or a shared HS256 secret (air-gapped). None set = account login off.
 * Every field is optional so tests and operators set only what they use; defaults live in jwt.ts.
 */
export const JwtConfig = t.Object({
  /** Identity provider's JWKS endpoint (https; http only makes sense on loopback or a trusted network). */
  jwksUrl: t.Optional(t.String({ minLength: 1 })),
  /** A JWKS JSON file on disk; re-read when its modification time changes. */
  jwksFile: t.Optional(t.String({ minLength: 1 })),
  /** Shared HMAC secret (at least 32 bytes). Env only (FCS_JWT_SECRET): a flag would show in `ps`. */
  secret: t.Optional(t.String({ minLength: 1 })),
  /** Required `iss` value, when set. */
  issuer: t.Optional(t.String({ minLength: 1 })),
  /** Accepted `aud` values (the token must name one of them), when non-empty. */
  audience: t.Optional(t.Array(t.String({ minLength: 1 }))),
  /** Allowed `alg` values; default: RS/PS/ES/EdDSA for a JWKS, HS256 for a secret. HS and asymmetric never mix. */
  algorithms: t.Optional(t.Array(t.String({ minLength: 1 }))),
  /** Seconds of clock skew allowed on exp/nbf/iat (default 30). */
  clockToleranceSec: t.Optional(t.Integer({ minimum: 0, maximum: 300 })),
  /** Longest lifetime a token may claim: an `exp` further than this past now is refused (default 86 400 s). */
  maxLifetimeSec: t.Optional(t.Integer({ minimum: 60, maximum: 31_536_000 })),
  /** Minimum ms between two JWKS refetches triggered by an unknown `kid` (jose default 30 000). */
  jwksCooldownMs: t.Optional(t.Integer({ minimum: 0 })),
  /** Max age in ms of the cached JWKS before it is fetched again (jose default 600 000). */
  jwksCacheMaxAgeMs: t.Optional(t.Integer({ minimum: 0 })),
  /** Claim that carries the plan; when unset the tier always comes from our own account record. */
  tierClaim: t.Optional(t.String({ minLength: 1 })),
  /** Claim value -> tier; without it the claim's value must itself be a tier name. */
  tierMap: t.Optional(t.Record(t.String(), Tier)),
});
export type JwtConfig = Static<typeof JwtConfig>;
