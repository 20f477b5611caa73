import type { TObject, TSchema } from '@sinclair/typebox';
import { t } from './shared/typebox';
import { Tier } from './tiers';

/**
 * Every setting of the service, each declared once: its type with its default (TypeBox), its
 * environment variable(s), its `serve` flag and one line of meaning. From this table come the
 * Config and JwtConfig schemas (src/config.ts, src/jwt-config.ts), the parser of env and argv
 * (src/cli/options.ts), `serve --help` and the settings table of docs/operations.md
 * (scripts/docs-settings.ts). Adding a setting is one line here.
 */
export type Setting<T extends TSchema = TSchema> = {
  type: T;
  /** The variable first, then any accepted alias; a flag wins over all of them. */
  env: readonly string[];
  /** `serve` flag without its dashes; '' = environment only (a secret would show in `ps`). */
  flag: string;
  meaning: string;
  /** Text -> value, where it is not a number, a yes/no, a comma list or the text itself. */
  read?: (text: string) => unknown;
};

/** One line per setting: `name: s(type with default, 'FCS_NAME', 'flag-name', 'meaning')`. */
function s<T extends TSchema>(type: T, env: string | readonly string[], flag: string, meaning: string, read?: (text: string) => unknown): Setting<T> {
  return { type, env: typeof env === 'string' ? [env] : env, flag, meaning, read };
}

const orNull = <T extends TSchema>(type: T) => t.Union([type, t.Null()], { default: null });

/** `value=tier,value=tier` -> record; the tiers are checked with the rest of the settings. */
function tierMapOf(text: string): Record<string, string> {
  const entries = listOf(text).map((pair) => {
    const i = pair.lastIndexOf('=');
    if (i <= 0) throw new Error(`FCS_JWT_TIER_MAP entry "${pair}" is not claim-value=tier`);
    return [pair.slice(0, i).trim(), pair.slice(i + 1).trim()];
  });
  return Object.fromEntries(entries);
}

export const listOf = (text: string) => text.split(',').map((x) => x.trim()).filter(Boolean);

export const SETTINGS = {
  port: s(t.Integer({ minimum: 0, maximum: 65535, default: 8080 }), ['FCS_PORT', 'PORT'], 'port', 'TCP port to listen on; 0 = any free port'),
  host: s(t.String({ default: '0.0.0.0' }), 'FCS_HOST', 'host', 'bind address'),
  reusePort: s(t.Boolean({ default: false }), 'FCS_REUSE_PORT', 'reuse-port', 'share the port (SO_REUSEPORT); off = a taken port stops the start'),
  indexPath: s(orNull(t.String()), 'FCS_INDEX', 'index', 'index file; none = the embedded sample'),
  stateDir: s(t.String({ default: './var' }), 'FCS_STATE_DIR', 'state-dir', 'state directory'),
  reportCacheDir: s(orNull(t.String({ minLength: 1 })), 'FCS_REPORT_CACHE_DIR', 'report-cache-dir', 'PDF cache (reports.md); none = STATE_DIR/report-cache, off = no cache'),
  reportCacheMaxMb: s(t.Integer({ minimum: 1, maximum: 1_048_576, default: 1024 }), 'FCS_REPORT_CACHE_MAX_MB', 'report-cache-max-mb', 'report cache size cap, MiB (oldest go first)'),
  reportCacheMemoryMb: s(t.Integer({ minimum: 0, maximum: 65_536, default: 64 }), 'FCS_REPORT_CACHE_MEMORY_MB', 'report-cache-memory-mb', 'report cache memory tier, MiB; 0 = none'),
  reportCacheMinFreeMb: s(t.Integer({ minimum: 0, maximum: 1_048_576, default: 256 }), 'FCS_REPORT_CACHE_MIN_FREE_MB', 'report-cache-min-free-mb', 'free disk space, MiB, below which the report cache stores nothing; 0 = no floor'),
  renderWorkers: s(t.Integer({ minimum: 1, maximum: 64, default: 1 }), 'FCS_RENDER_WORKERS', 'render-workers', 'render pool threads (operations.md, Render pool)'),
  renderQueue: s(t.Integer({ minimum: 0, maximum: 10_000, default: 16 }), 'FCS_RENDER_QUEUE', 'render-queue', 'renders that may wait beyond those running; past it 503'),
  heavyPerAccount: s(t.Integer({ minimum: 1, maximum: 1000, default: 2 }), 'FCS_HEAVY_PER_ACCOUNT', 'heavy-per-account', 'renders one account may have in progress; past it 429, not counted'),
  compressMinBytes: s(t.Integer({ minimum: 0, maximum: 1_073_741_824, default: 1024 }), 'FCS_COMPRESS_MIN_BYTES', 'compress-min-bytes', 'smallest answer gzip-compressed, bytes (api.md, Compression)'),
  redisUrl: s(orNull(t.String()), 'REDIS_URL', 'redis-url', 'Redis shared by replicas (replicas.md); none = SQLite state'),
  redisPrefix: s(t.String({ minLength: 1, default: 'fcs:' }), 'FCS_REDIS_PREFIX', '', 'namespace of every Redis key'),
  redisTimeoutMs: s(t.Integer({ minimum: 10, maximum: 60000, default: 10000 }), 'FCS_REDIS_TIMEOUT_MS', '', 'longest Redis reply wait before a 503'),
  redisConnectTimeoutMs: s(t.Integer({ minimum: 10, maximum: 60000, default: 1000 }), 'FCS_REDIS_CONNECT_TIMEOUT_MS', '', 'longest Redis (re)connect before it is unreachable'),
  corsOrigins: s(t.Array(t.String({ pattern: '^https?://[^/\\s]+$' }), { default: [] }), 'FCS_CORS_ORIGINS', 'cors-origins', 'browser origins allowed on keyed endpoints (api.md, CORS)'),
  trustedProxies: s(t.Array(t.String(), { default: [] }), 'FCS_TRUSTED_PROXIES', 'trusted-proxies', 'proxy CIDRs whose X-Forwarded-For is believed'),
  geocoderUrl: s(orNull(t.String({ pattern: '^https?://' })), 'FCS_GEOCODER_URL', '', 'demo: Census-format geocoder URL (demo.md); none = offline'),
  geocoderBenchmark: s(t.String({ minLength: 1, default: 'Public_AR_Current' }), 'FCS_GEOCODER_BENCHMARK', '', 'demo: geocoder benchmark parameter'),
  geocoderTimeoutMs: s(t.Integer({ minimum: 50, maximum: 30000, default: 1500 }), 'FCS_GEOCODER_TIMEOUT_MS', '', 'demo: per-request geocoder timeout'),
  demoMatchMiles: s(t.Number({ exclusiveMinimum: 0, maximum: 1, default: 0.1 }), 'FCS_DEMO_MATCH_MILES', '', 'demo: geocoded point to facility match distance'),
  siteApproximateMeters: s(t.Number({ exclusiveMinimum: 0, maximum: 100_000, default: 1000 }), 'FCS_SITE_APPROXIMATE_METERS', '', 'site report: a facility located coarser than this (metres) is never on site or adjoining'),
  signupTier: s(t.Union(Tier.anyOf, { default: 'free' }), 'FCS_SIGNUP_TIER', 'signup-tier', 'tier of accounts signed up through the API'),
  logRequests: s(t.Boolean({ default: true }), 'FCS_LOG_REQUESTS', '', 'one access line per request; 0 = none'),
  metricsToken: s(orNull(t.String({ minLength: 16 })), 'FCS_METRICS_TOKEN', '', 'bearer token for /metrics; none = public'),
  shutdownTimeoutMs: s(t.Integer({ minimum: 0, maximum: 600000, default: 15000 }), 'FCS_SHUTDOWN_TIMEOUT_MS', '', 'SIGTERM drain limit for in-flight requests'),
  webhookAllow: s(t.Array(t.String({ minLength: 1 }), { default: [] }), 'FCS_WEBHOOK_ALLOW', 'webhook-allow', 'hosts, *.domains, IPs, CIDRs webhooks may target; none = webhooks off'),
  webhookTimeoutMs: s(t.Integer({ minimum: 100, maximum: 60000, default: 5000 }), 'FCS_WEBHOOK_TIMEOUT_MS', '', 'longest wait for a receiver'),
  webhookRetryBaseMs: s(t.Integer({ minimum: 10, maximum: 3600000, default: 5000 }), 'FCS_WEBHOOK_RETRY_BASE_MS', '', 'first retry delay, doubling per failed attempt'),
  webhookRetryMaxMs: s(t.Integer({ minimum: 10, maximum: 86400000, default: 3600000 }), 'FCS_WEBHOOK_RETRY_MAX_MS', '', 'longest retry delay'),
  webhookGiveUpMs: s(t.Integer({ minimum: 100, maximum: 604800000, default: 86400000 }), 'FCS_WEBHOOK_GIVE_UP_MS', '', 'a delivery failing this long is marked failed'),
  webhookPollMs: s(t.Integer({ minimum: 10, maximum: 60000, default: 1000 }), 'FCS_WEBHOOK_POLL_MS', '', 'outbox poll interval'),
  webhookLeaseMs: s(t.Integer({ minimum: 200, maximum: 3600000, default: 60000 }), 'FCS_WEBHOOK_LEASE_MS', '', 'claim lease of an event; must exceed the timeout'),
};

/**
 * Account-endpoint JWT verification (accounts.md): exactly one key source (JWKS URL, JWKS file or
 * HS256 secret); none = account login off. Unset values stay absent: src/account/jwt.ts holds the
 * defaults the meanings name.
 */
export const JWT_SETTINGS = {
  jwksUrl: s(t.Optional(t.String({ minLength: 1 })), 'FCS_JWT_JWKS_URL', 'jwt-jwks-url', "identity provider's JWKS endpoint"),
  jwksFile: s(t.Optional(t.String({ minLength: 1 })), 'FCS_JWT_JWKS_FILE', 'jwt-jwks-file', 'local JWKS file (public keys)'),
  secret: s(t.Optional(t.String({ minLength: 1 })), 'FCS_JWT_SECRET', '', 'shared HS256 secret, 32+ bytes (air-gapped)'),
  issuer: s(t.Optional(t.String({ minLength: 1 })), 'FCS_JWT_ISSUER', 'jwt-issuer', 'required iss'),
  audience: s(t.Optional(t.Array(t.String({ minLength: 1 }))), 'FCS_JWT_AUDIENCE', 'jwt-audience', 'accepted aud values'),
  algorithms: s(t.Optional(t.Array(t.String({ minLength: 1 }))), 'FCS_JWT_ALGORITHMS', 'jwt-algorithms', 'allowed alg values (default: asymmetric, or HS256 for a secret)'),
  clockToleranceSec: s(t.Optional(t.Integer({ minimum: 0, maximum: 300 })), 'FCS_JWT_CLOCK_TOLERANCE_SEC', '', 'clock skew allowed, s (default 30)'),
  maxLifetimeSec: s(t.Optional(t.Integer({ minimum: 60, maximum: 31_536_000 })), 'FCS_JWT_MAX_LIFETIME_SEC', '', 'longest token lifetime, s (default 86400)'),
  jwksCooldownMs: s(t.Optional(t.Integer({ minimum: 0 })), 'FCS_JWKS_COOLDOWN_MS', '', 'least gap between JWKS refetches (default 30000)'),
  jwksCacheMaxAgeMs: s(t.Optional(t.Integer({ minimum: 0 })), 'FCS_JWKS_CACHE_MAX_AGE_MS', '', 'JWKS cache age limit (default 600000)'),
  tierClaim: s(t.Optional(t.String({ minLength: 1 })), 'FCS_JWT_TIER_CLAIM', 'jwt-tier-claim', "claim carrying the plan; none = the account's tier"),
  tierMap: s(t.Optional(t.Record(t.String(), Tier)), 'FCS_JWT_TIER_MAP', 'jwt-tier-map', 'claim value=tier,...; none = values are tier names', tierMapOf),
};

type Table = Record<string, Setting>;
type SchemaOf<T extends Table> = TObject<{ [K in keyof T]: T[K]['type'] }>;

/** The object schema of a table's types. */
export function schemaOf<T extends Table>(table: T): SchemaOf<T> {
  return t.Object(Object.fromEntries(Object.entries(table).map(([k, v]) => [k, v.type]))) as unknown as SchemaOf<T>;
}

/**
 * The JSON type a setting's text is read as: 'integer', 'number', 'boolean', 'array', 'object' or
 * 'string'. Unions count by their members: `X | null` is X, and the vocabulary's integer (an
 * integer or its text, for query strings) is an integer.
 */
export function kindOf(type: TSchema): string {
  const members: TSchema[] = type.anyOf ? (type.anyOf as TSchema[]).flatMap((m) => (m.anyOf ? m.anyOf : [m])) : [type];
  const types = new Set(members.map((m) => m.type as string | undefined).filter((k) => k !== undefined && k !== 'null'));
  for (const k of ['integer', 'number', 'boolean', 'array', 'object']) if (types.has(k)) return k;
  return 'string';
}

/** Every setting, flat, in table order, for the parser, the help and the docs. */
export const ALL_SETTINGS: readonly (Setting & { key: string; group: 'config' | 'jwt' })[] = [
  ...Object.entries(SETTINGS).map(([key, v]) => ({ ...(v as Setting), key, group: 'config' as const })),
  ...Object.entries(JWT_SETTINGS).map(([key, v]) => ({ ...(v as Setting), key, group: 'jwt' as const })),
];
