import type { Config } from '../config';
import type { PeerAddress } from '../demo/client-ip';
import type { Geocoder } from '../demo/geocoder';
import type { SpatialHandle } from '../area/spatial-handle';
import type { FacilityIndex } from '../index/facility-index';
import type { Lifecycle } from '../ops/lifecycle';
import { ServiceMetrics } from '../ops/service-metrics';
import type { StateStore } from '../state/store';
import type { Log } from '../log';
import { createJwtVerifier, type JwtVerifier } from '../account/jwt';
import type { ReportCache } from '../reports/cache';
import { openReportCache } from '../reports/service';
import type { WebAssets } from '../web/assets';
import { RenderPool } from '../render/pool';

/** The parts built once per process and shared by every app a reload builds (see `processParts`). */
export type ProcessParts = {
  /** Ops (docs/operations.md): counters survive index reloads. */
  metrics: ServiceMetrics;
  /** Account login (docs/accounts.md): keeps its JWKS cache across reloads; `mode: 'off'` when not configured. */
  jwtVerifier: JwtVerifier;
  /** PDF dossiers (docs/reports.md): null when `reportCacheDir` is `off`. */
  reportCache: ReportCache | null;
  /** Site reports, dossier PDFs and their exports, made on worker threads (docs/operations.md, "Render pool"). */
  renderPool: RenderPool;
};

/**
 * Everything the app needs from outside, passed in by `serve` (src/cli/serve.ts) or a test.
 * Three kinds: the process's own (config, store, clock, log, and `ProcessParts`), the index being
 * served (`index`, and anything built from it before it serves), and optional seams tests replace.
 */
export type AppDeps = ProcessParts & {
  config: Config;
  index: FacilityIndex;
  /** The area search's spatial index, ready now or later (src/area/spatial-handle.ts); made by `serve`, never by a request. */
  spatial: SpatialHandle;
  store: StateStore;
  /** Epoch ms; tests pass a fixed clock. */
  clock: () => number;
  log: Log;
  /** Ops: `draining` is set on SIGTERM so /readyz answers 503; default: never draining. */
  lifecycle?: Lifecycle;
  /** Demo: socket peer of a request; default `server.requestIP` (tests of `app.handle`, which has no socket, inject one). */
  peerAddress?: PeerAddress;
  /** Demo: external geocoder; default: built from `config.geocoderUrl` (none when null). */
  geocoder?: Geocoder;
  /** The web page's files (src/web/assets.ts); default none: `/` then says how to build them. */
  web?: WebAssets | null;
};

/**
 * Builds the process-wide parts from the config, once: `serve` before its first app, a test per
 * world. Reads a configured JWKS file now, so a bad one stops the start; touches nothing else on disk and starts no thread.
 */
export function processParts(config: Config, clock: () => number, log: Log): ProcessParts {
  const metrics = new ServiceMetrics();
  const reportCache = openReportCache(config, clock, log);
  if (reportCache) metrics.countReportCache(reportCache.stats, reportCache.memory);
  // Its workers start with the first heavy request, not here.
  const renderPool = new RenderPool({ workers: config.renderWorkers, queue: config.renderQueue, perAccount: config.heavyPerAccount, log });
  return { metrics, jwtVerifier: createJwtVerifier(config.jwt, log), reportCache, renderPool };
}
