import { ACCOUNT_ENV_HELP, ACCOUNT_OPTIONS } from '../account/jwt-options';
import { jwtModeOf } from '../account/jwt';
import { createApp } from '../app';
import { resolveIndexPath } from '../index/bundled';
import { FacilityIndex } from '../index/facility-index';
import { openStateStore } from '../state/open-store';
import { configFrom, parse } from './options';

const HELP = `facility-score serve [--port 8080] [--host 0.0.0.0] [--index PATH] [--state-dir ./var] [--redis-url URL] [--trusted-proxies CIDR,...]
  [--jwt-jwks-url URL | --jwt-jwks-file PATH] [--jwt-issuer ISS] [--jwt-audience AUD,...] [--jwt-algorithms ALG,...]
  [--jwt-tier-claim CLAIM] [--jwt-tier-map value=tier,...] [--signup-tier free|starter|platform|enterprise]   account login (docs/accounts.md)
Env: FCS_PORT (or PORT), FCS_HOST, FCS_INDEX, FCS_STATE_DIR, REDIS_URL, FCS_TRUSTED_PROXIES, FCS_LOG_REQUESTS=0,
  ${ACCOUNT_ENV_HELP}`;

export async function serveCommand(args: string[], env: Record<string, string | undefined>): Promise<number | null> {
  const { values } = parse(args, { port: { type: 'string' }, host: { type: 'string' }, 'trusted-proxies': { type: 'string' }, ...ACCOUNT_OPTIONS });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const config = configFrom(env, values);
  // Opened now so a missing or corrupt index fails at start, not at the first request.
  const index = FacilityIndex.open(resolveIndexPath(config.indexPath));
  const store = await openStateStore(config);
  const log = (entry: Record<string, unknown>) => process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), ...entry })}\n`);
  const app = createApp({ config, index, store, clock: Date.now, log });
  app.listen({ port: config.port, hostname: config.host });
  const info = index.info;
  log({
    level: 'info',
    msg: `listening on http://${config.host}:${app.server?.port}`,
    port: app.server?.port,
    dataset: info.dataset_name,
    facilities: info.facility_count,
    fictitious: info.fictitious,
    state: store.kind,
    account_login: jwtModeOf(config.jwt),
  });
  return null;
}
