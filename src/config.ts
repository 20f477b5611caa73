import { t, type Static } from './shared/typebox';
import { Value } from '@sinclair/typebox/value';
import { Tier } from './tiers';
import { JwtConfig } from './jwt-config';

/** Every setting of the service. src/cli/options.ts fills it from flags and env (flags win); nothing else reads env. */
export const Config = t.Object({
  port: t.Integer({ minimum: 0, maximum: 65535, default: 8080 }),
  host: t.String({ default: '0.0.0.0' }),
  /** Share the port with other processes already listening on it (SO_REUSEPORT); false = a taken port stops the start. */
  reusePort: t.Boolean({ default: false }),
  /** External index file; null = the bundled sample (embedded in the binary). */
  indexPath: t.Union([t.String(), t.Null()], { default: null }),
  stateDir: t.String({ default: './var' }),
  /** Where rendered PDF dossiers are cached (docs/reports.md); null = `<stateDir>/report-cache`, 'off' = no cache. */
  reportCacheDir: t.Union([t.String({ minLength: 1 }), t.Null()], { default: null }),
  /** Size cap of the report cache in MiB; past it the oldest entries are deleted first. */
  reportCacheMaxMb: t.Integer({ minimum: 1, maximum: 1_048_576, default: 1024 }),
  /** Memory tier of the report cache in MiB: the most recently used PDFs, served without reading their file; 0 = none. */
  reportCacheMemoryMb: t.Integer({ minimum: 0, maximum: 65_536, default: 64 }),
  /** Render pool (docs/operations.md): worker threads that make site reports, dossier PDFs and their
   * exports off the request thread; heavy requests that may wait for one beyond those running; and
   * heavy requests one account may have in progress at once (over it: 429). Per process. */
  renderWorkers: t.Integer({ minimum: 1, maximum: 64, default: 1 }),
  renderQueue: t.Integer({ minimum: 0, maximum: 10_000, default: 16 }),
  heavyPerAccount: t.Integer({ minimum: 1, maximum: 1000, default: 2 }),
  /** The report cache stores nothing while its file system has less free than this many MiB, so
   * filling it can never take the space the state store needs to count calls; 0 = no floor. */
  reportCacheMinFreeMb: t.Integer({ minimum: 0, maximum: 1_048_576, default: 256 }),
  /** Redis URL for shared state between replicas; null = embedded SQLite state. */
  redisUrl: t.Union([t.String(), t.Null()], { default: null }),
  /** Redis (docs/replicas.md): namespace of every key; the longest wait for one reply before a 503
   * (a slow Redis is waited for); the longest wait for a connection before Redis counts as unreachable. */
  redisPrefix: t.String({ minLength: 1, default: 'fcs:' }),
  redisTimeoutMs: t.Integer({ minimum: 10, maximum: 60000, default: 10000 }),
  redisConnectTimeoutMs: t.Integer({ minimum: 10, maximum: 60000, default: 1000 }),
  /** Browser origins (`https://app.example.com`) allowed to call the keyed endpoints cross-origin;
   * empty = none. The public demo and status answer any origin (docs/api.md, CORS). */
  corsOrigins: t.Array(t.String({ pattern: '^https?://[^/\\s]+$' }), { default: [] }),
  /** CIDRs of reverse proxies whose X-Forwarded-For is believed. */
  trustedProxies: t.Array(t.String(), { default: [] }),
  /** Demo (docs/demo.md): external geocoder speaking the US Census one-line-address API; null = offline only. */
  geocoderUrl: t.Union([t.String({ pattern: '^https?://' }), t.Null()], { default: null }),
  geocoderBenchmark: t.String({ minLength: 1, default: 'Public_AR_Current' }),
  geocoderTimeoutMs: t.Integer({ minimum: 50, maximum: 30000, default: 1500 }),
  /** Demo: a point from the external geocoder matches the nearest facility within this many miles. */
  demoMatchMiles: t.Number({ exclusiveMinimum: 0, maximum: 1, default: 0.1 }),
  /** Tier given to accounts created by sign-up through the account API. */
  signupTier: Tier,
  /** Account-endpoint JWT verification (docs/accounts.md); empty = account login off. */
  jwt: JwtConfig,
  logRequests: t.Boolean({ default: true }),
  /** JSON, CSV and GeoJSON answers of at least this many bytes are gzip-compressed for a client that accepts it (docs/api.md, "Compression"). */
  compressMinBytes: t.Integer({ minimum: 0, maximum: 1_073_741_824, default: 1024 }),
  /** Bearer token /metrics requires; null = /metrics is public (docs/operations.md). */
  metricsToken: t.Union([t.String({ minLength: 16 }), t.Null()], { default: null }),
  /** On SIGTERM, how long in-flight requests may run before their connections are closed. */
  shutdownTimeoutMs: t.Integer({ minimum: 0, maximum: 600000, default: 15000 }),
  /** Webhooks (docs/webhooks.md): hosts, *.domains, IPs and CIDRs a webhook may target; empty = webhooks off. */
  webhookAllow: t.Array(t.String({ minLength: 1 }), { default: [] }),
  /** Longest wait for a receiver's answer. */
  webhookTimeoutMs: t.Integer({ minimum: 100, maximum: 60000, default: 5000 }),
  /** First retry after this long, doubling per failed attempt up to `webhookRetryMaxMs`. */
  webhookRetryBaseMs: t.Integer({ minimum: 10, maximum: 3600000, default: 5000 }),
  webhookRetryMaxMs: t.Integer({ minimum: 10, maximum: 86400000, default: 3600000 }),
  /** A delivery still failing this long after its event (or redelivery request) is marked failed. */
  webhookGiveUpMs: t.Integer({ minimum: 100, maximum: 604800000, default: 86400000 }),
  /** How often the outbox is checked for due events. */
  webhookPollMs: t.Integer({ minimum: 10, maximum: 60000, default: 1000 }),
  /** A claimed event is out of other replicas' reach this long; must exceed webhookTimeoutMs. */
  webhookLeaseMs: t.Integer({ minimum: 200, maximum: 3600000, default: 60000 }),
});
export type Config = Static<typeof Config>;

export const DEFAULT_CONFIG: Config = Object.freeze({
  port: 8080,
  host: '0.0.0.0',
  reusePort: false,
  indexPath: null,
  stateDir: './var',
  reportCacheDir: null,
  reportCacheMaxMb: 1024,
  reportCacheMemoryMb: 64,
  renderWorkers: 1,
  renderQueue: 16,
  heavyPerAccount: 2,
  reportCacheMinFreeMb: 256,
  redisUrl: null,
  redisPrefix: 'fcs:',
  redisTimeoutMs: 10000,
  redisConnectTimeoutMs: 1000,
  corsOrigins: [],
  trustedProxies: [],
  geocoderUrl: null,
  geocoderBenchmark: 'Public_AR_Current',
  geocoderTimeoutMs: 1500,
  demoMatchMiles: 0.1,
  signupTier: 'free',
  jwt: {},
  logRequests: true,
  compressMinBytes: 1024,
  metricsToken: null,
  shutdownTimeoutMs: 15000,
  webhookAllow: [],
  webhookTimeoutMs: 5000,
  webhookRetryBaseMs: 5000,
  webhookRetryMaxMs: 3600000,
  webhookGiveUpMs: 86400000,
  webhookPollMs: 1000,
  webhookLeaseMs: 60000,
}) as Config;

/** Merges overrides onto the defaults and validates; throws a one-line message on bad settings. */
export function makeConfig(overrides: Partial<Config> = {}): Config {
  const merged = { ...DEFAULT_CONFIG, ...Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined)) };
  const first = Value.Errors(Config, merged).First();
  if (first) throw new Error(`invalid configuration: ${first.path.slice(1) || 'config'} ${first.message}`);
  if ((merged as Config).webhookLeaseMs <= (merged as Config).webhookTimeoutMs) throw new Error('invalid configuration: webhookLeaseMs must exceed webhookTimeoutMs');
  return Object.freeze(merged) as Config;
}
