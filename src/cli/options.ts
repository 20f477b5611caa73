import { parseArgs, type ParseArgsConfig } from 'node:util';
import { makeConfig, type Config } from '../config';
import { jwtConfigFrom } from '../account/jwt-options';
import { WebhookAllowList } from '../watchlists/webhooks/allow-list';

/** Options shared by commands that touch state or the index; flags override env. */
export const COMMON_OPTIONS = {
  index: { type: 'string' },
  'state-dir': { type: 'string' },
  'redis-url': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export function parse<const O extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: O) {
  const all = { ...COMMON_OPTIONS, ...options } as typeof COMMON_OPTIONS & O;
  return parseArgs({ args, options: all, allowPositionals: true, strict: true });
}

/** Config from env, overridden by whichever flags were given. */
export function configFrom(env: Record<string, string | undefined>, flags: Record<string, unknown>): Config {
  // A variable set to '' (FCS_PORT= in a unit file or .env) means "not set", as for --version and the JWT settings.
  const fromEnv = (name: string) => (env[name] === '' ? undefined : env[name]);
  const str = (flag: string, envName: string) => (flags[flag] as string | undefined) ?? fromEnv(envName);
  const num = (envName: string) => (fromEnv(envName) === undefined ? undefined : Number(env[envName]));
  const port = str('port', 'FCS_PORT') ?? fromEnv('PORT');
  const proxies = str('trusted-proxies', 'FCS_TRUSTED_PROXIES');
  const corsOrigins = str('cors-origins', 'FCS_CORS_ORIGINS');
  // a size or count given as '' is refused by the config check (NaN), not read as 0
  const mib = (v: string | undefined) => (v === undefined ? undefined : v === '' ? Number.NaN : Number(v));
  const webhookAllow = str('webhook-allow', 'FCS_WEBHOOK_ALLOW');
  const config = makeConfig({
    port: port === undefined ? undefined : Number(port),
    host: str('host', 'FCS_HOST'),
    reusePort: flags['reuse-port'] === true || (fromEnv('FCS_REUSE_PORT') === undefined ? undefined : !['0', 'false'].includes(env.FCS_REUSE_PORT!)),
    indexPath: str('index', 'FCS_INDEX') ?? null,
    stateDir: str('state-dir', 'FCS_STATE_DIR'),
    reportCacheDir: str('report-cache-dir', 'FCS_REPORT_CACHE_DIR') || null,
    reportCacheMaxMb: mib(str('report-cache-max-mb', 'FCS_REPORT_CACHE_MAX_MB')),
    reportCacheMemoryMb: mib(str('report-cache-memory-mb', 'FCS_REPORT_CACHE_MEMORY_MB')),
    renderWorkers: mib(str('render-workers', 'FCS_RENDER_WORKERS')),
    renderQueue: mib(str('render-queue', 'FCS_RENDER_QUEUE')),
    heavyPerAccount: mib(str('heavy-per-account', 'FCS_HEAVY_PER_ACCOUNT')),
    reportCacheMinFreeMb: mib(str('report-cache-min-free-mb', 'FCS_REPORT_CACHE_MIN_FREE_MB')),
    redisUrl: str('redis-url', 'REDIS_URL') ?? null,
    redisPrefix: env.FCS_REDIS_PREFIX || undefined,
    redisTimeoutMs: num('FCS_REDIS_TIMEOUT_MS'),
    redisConnectTimeoutMs: num('FCS_REDIS_CONNECT_TIMEOUT_MS'),
    corsOrigins: corsOrigins ? corsOrigins.split(',').map((s) => s.trim()).filter(Boolean) : undefined,
    trustedProxies: proxies ? proxies.split(',').map((s) => s.trim()).filter(Boolean) : undefined,
    geocoderUrl: env.FCS_GEOCODER_URL || null,
    geocoderBenchmark: fromEnv('FCS_GEOCODER_BENCHMARK'),
    geocoderTimeoutMs: num('FCS_GEOCODER_TIMEOUT_MS'),
    demoMatchMiles: num('FCS_DEMO_MATCH_MILES'),
    signupTier: (str('signup-tier', 'FCS_SIGNUP_TIER') as Config['signupTier'] | undefined) ?? 'free',
    jwt: jwtConfigFrom(env, flags),
    logRequests: fromEnv('FCS_LOG_REQUESTS') === undefined ? undefined : env.FCS_LOG_REQUESTS !== '0',
    compressMinBytes: mib(str('compress-min-bytes', 'FCS_COMPRESS_MIN_BYTES')),
    metricsToken: env.FCS_METRICS_TOKEN || null,
    shutdownTimeoutMs: num('FCS_SHUTDOWN_TIMEOUT_MS'),
    webhookAllow: webhookAllow ? webhookAllow.split(',').map((s) => s.trim()).filter(Boolean) : undefined,
    webhookTimeoutMs: num('FCS_WEBHOOK_TIMEOUT_MS'),
    webhookRetryBaseMs: num('FCS_WEBHOOK_RETRY_BASE_MS'),
    webhookRetryMaxMs: num('FCS_WEBHOOK_RETRY_MAX_MS'),
    webhookGiveUpMs: num('FCS_WEBHOOK_GIVE_UP_MS'),
    webhookPollMs: num('FCS_WEBHOOK_POLL_MS'),
    webhookLeaseMs: num('FCS_WEBHOOK_LEASE_MS'),
  });
  // Checked at load, so a bad entry stops every command with its name, not the first delivery.
  new WebhookAllowList(config.webhookAllow);
  return config;
}
