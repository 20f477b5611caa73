import { join } from 'node:path';
import { jwtModeOf } from '../account/jwt';
import { createApp } from '../api/app';
import { processParts } from '../api/deps';
import { openIndex } from '../index/bundled';
import { prepareSpatial } from '../ops/index-preparer';
import { newLifecycle } from '../ops/lifecycle';
import { ServiceProcess } from './service-process';
import { lineLog } from '../ops/log-sink';
import { openStateStore } from '../state/open-store';
import { loadWebAssets } from '../web/assets';
import { WebhookDispatcher } from '../watchlists/webhooks/dispatcher';
import { emitReleaseEvents } from '../watchlists/webhooks/release-events';
import { configFrom, parse, SERVE_OPTIONS } from './options';
import { serveHelp } from './settings-text';

export async function serveCommand(args: string[], env: Record<string, string | undefined>): Promise<number | null> {
  const { values } = parse(args, SERVE_OPTIONS);
  if (values.help) {
    console.log(serveHelp());
    return 0;
  }
  const config = configFrom(env, values);
  const lines = lineLog();
  const log = lines.log;
  // The binary's embedded sample is served from a file copy kept in the state dir (src/index/bundled.ts).
  const indexOptions = { copyDir: join(config.stateDir, 'embedded-sample'), log };
  // Opened now so a missing or corrupt index fails at start, not at the first request.
  const index = await openIndex(config.indexPath, indexOptions);
  // Every exit below says why in a last line: write the pending ones first.
  const exit = (code: number) => {
    lines.flush();
    process.exit(code);
  };
  const store = await openStateStore(config, { serving: true, log });
  // Built before anything listens, so a bad --webhook-allow entry stops the start with its message.
  const accounts = (id: string) => store.getAccount(id);
  const dispatcher = new WebhookDispatcher({ watch: store.watch, accounts, settings: config, log, clock: Date.now });
  // Built once: every app a reload builds shares them (counters, JWKS cache, report cache, the
  // web page's files, read and gzipped here).
  const parts = processParts(config, Date.now, log);
  const web = await loadWebAssets();
  const lifecycle = newLifecycle();
  const service = await ServiceProcess.start(
    {
      config,
      store,
      log,
      metrics: parts.metrics,
      lifecycle,
      makeApp: (ix, spatial) => createApp({ ...parts, config, index: ix, spatial, store, clock: Date.now, log, lifecycle, web }),
      openIndex: () => openIndex(config.indexPath, indexOptions),
      // The release's area file, used in place; or built on a worker while everything else serves.
      prepareSpatial: (ix) => prepareSpatial(ix, log),
      onIndexServed: async (ix) => void (await emitReleaseEvents({ index: ix, watch: store.watch, accounts, now: Date.now(), log })),
      stopBackground: () => dispatcher.stop(),
    },
    index,
  );
  // Installed before the "listening" line: a supervisor that signals as soon as it sees that line
  // must get the graceful stop, not the default exit 143.
  // SIGTERM/SIGINT: graceful stop (docs/operations.md); SIGHUP: re-open the index path and hand over.
  let stopping = false;
  const stop = (signal: string) => {
    // A second Ctrl-C / SIGTERM while draining means "now": exit without waiting.
    if (stopping) {
      log({ level: 'warn', msg: `${signal} again: exiting without waiting for in-flight requests` });
      exit(1);
    }
    stopping = true;
    service.shutdown(signal).then(
      (code) => exit(code),
      (e: Error) => {
        log({ level: 'error', msg: `shutdown failed: ${e.message}` });
        exit(1);
      },
    );
  };
  dispatcher.start();
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  // reload() answers every failure itself; the catch only keeps an unforeseen one from killing the process.
  process.on('SIGHUP', () => void service.reload().catch((e: Error) => log({ level: 'error', msg: `reload failed: ${e.message}` })));
  const info = service.indexInfo;
  log({
    level: 'info',
    msg: `listening on http://${config.host}:${service.port}`,
    port: service.port,
    pid: process.pid,
    dataset: info.dataset_name,
    as_of: info.as_of,
    facilities: info.facility_count,
    fictitious: info.fictitious,
    index: config.indexPath ?? '(embedded sample)',
    search_tables: service.searchTables,
    state: store.kind,
    account_login: jwtModeOf(config.jwt),
  });
  return null;
}
