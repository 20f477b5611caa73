import { canonicalAddress, listenersOn, sharesAddress } from './port-listeners';
import type { createApp } from '../api/app';
import type { Config } from '../config';
import type { Log } from '../log';
import { lastResort } from '../api/http/last-resort';
import type { FacilityIndex } from '../index/facility-index';
import type { StateStore } from '../state/store';
import type { SpatialHandle } from '../area/spatial-handle';
import type { Lifecycle } from '../ops/lifecycle';
import type { ServiceMetrics } from '../ops/service-metrics';

type App = ReturnType<typeof createApp>;

export type ServiceParts = {
  config: Config;
  store: StateStore;
  log: Log;
  metrics: ServiceMetrics;
  lifecycle: Lifecycle;
  /** Builds a complete app over an index and its area search's spatial index (the same deps otherwise). */
  makeApp: (index: FacilityIndex, spatial: SpatialHandle) => App;
  /** Opens the configured index anew (for a reload: the path may now point at a new file). */
  openIndex: () => Promise<FacilityIndex>;
  /**
   * The spatial index of an index, as a handle that may become ready later (src/ops/index-preparer.ts):
   * at start the server listens at once and the area search waits for it alone; a reload hands over
   * only once it is ready, since the old index serves everything meanwhile.
   */
  prepareSpatial: (index: FacilityIndex) => SpatialHandle;
  /** Runs once an index serves (at start and after each reload): turns new releases into webhook events. */
  onIndexServed?: (index: FacilityIndex) => Promise<void>;
  /** Background work that uses the state store (webhook delivery): stopped before the store closes. */
  stopBackground?: () => Promise<void>;
};

function describe(index: FacilityIndex) {
  const i = index.info;
  return { dataset: i.dataset_name, as_of: i.as_of, facilities: i.facility_count, fictitious: i.fictitious, search_tables: index.searchTables };
}

/**
 * The running server: one listening socket for the process's life, answering with the current app
 * over one index. Two operations change it:
 * - reload (SIGHUP): open the configured index again; if it is valid, build a fresh app on it and
 *   make it the one new requests reach, on the same socket and connections: a kept-alive client
 *   never has its connection closed under it. Requests already running finish on the old app,
 *   whose index is closed once the last of them has answered. An invalid file leaves the old app serving.
 * - shutdown (SIGTERM/SIGINT): stop accepting, let in-flight requests finish (bounded by
 *   `shutdownTimeoutMs`), each answering `Connection: close`, close the index and the state store,
 *   and report the exit code.
 */
/**
 * What Bun's HTTP server is started with (docs/api.md, "Requests refused before any route").
 * Bun's own body limit is out of reach: it answered a bare 413 before our code ran, where the
 * app's (src/api/http/request-guard.ts) answers in the envelope. Never Bun's developer page: a
 * failure the app does not answer itself still gets the envelope (lastResort).
 */
export function serverOptions(log: Log) {
  // idleTimeout: an idle kept-alive connection is closed after 30 s, as Elysia's own listen did.
  return { maxRequestBodySize: Number.MAX_SAFE_INTEGER, idleTimeout: 30, development: false, error: lastResort(log) };
}

/**
 * The request as Elysia's router can read it. Elysia finds the path by searching for "/" from the
 * 12th character of the URL, which assumes a host of at least four characters: behind a Host of
 * "x" or "api" (a container's service name) every path read wrong and answered 404. Such a request
 * is handed on under the same path with a longer host; nothing of ours reads the host from the URL.
 */
function withRoutablePath(request: Request): Request {
  const url = request.url;
  const pathAt = url.indexOf('/', url.indexOf('//') + 2);
  // a URL that does not parse is left for the target guard to refuse (src/api/http/request-guard.ts)
  if (pathAt === -1 || pathAt >= 11 || !URL.canParse(url)) return request;
  return new Request(`http://localhost${url.slice(pathAt)}`, request);
}

/**
 * Fails when something already listens on host:port. Our socket has SO_REUSEPORT (so that a second
 * instance may join it on purpose: --reuse-port, a binary replaced behind a balancer), and the
 * kernel lets a second SO_REUSEPORT socket join the port silently: a second `serve` would take half
 * the connections. The kernel's socket tables tell, with no socket of ours
 * (./port-listeners.ts). For a host name, or where there are no tables, an exclusive bind of our own
 * does: it refuses both an exclusive listener and a SO_REUSEPORT one, but a client that connects
 * in that instant is reset. Two starts in the very same instant could still both pass.
 */
function claimPort(host: string, port: number): void {
  if (port === 0) return; // the kernel picks a free port
  const inUse = () => new Error(`address in use: ${host}:${port} already has a listener: serve on another port with --port N or FCS_PORT=N (--reuse-port or FCS_REUSE_PORT=1 shares this one on purpose)`);
  const address = canonicalAddress(host);
  const listeners = address === null ? null : listenersOn(port);
  if (listeners !== null) {
    if (listeners.some((l) => sharesAddress(address!, l))) throw inUse();
    return;
  }
  try {
    Bun.serve({ port, hostname: host, reusePort: false, fetch: () => new Response(null, { status: 503 }) }).stop(true);
  } catch (e) {
    if ((e as { code?: string }).code !== 'EADDRINUSE') throw e;
    throw inUse();
  }
}

type Server = ReturnType<typeof Bun.serve>;

export class ServiceProcess {
  private app: App;
  private index: FacilityIndex;
  private server!: Server;
  /** Requests each app is answering; an app replaced by a reload is retired when its count is 0. */
  private readonly running = new Map<App, { count: number; idle: (() => void) | null }>();
  private reloading = false;
  /** Set while a reload hands over; a shutdown waits for it so no index is left open. */
  private handingOver: Promise<void> | null = null;
  private stopping = false;

  private constructor(
    private readonly parts: ServiceParts,
    index: FacilityIndex,
  ) {
    this.index = index;
    this.app = this.serving(parts.makeApp(index, parts.prepareSpatial(index)));
  }

  /** Listens on the configured host and port (0 = any free port) as soon as the index is open. */
  static async start(parts: ServiceParts, index: FacilityIndex): Promise<ServiceProcess> {
    const { port, host, reusePort } = parts.config;
    if (!reusePort) claimPort(host, port);
    const s = new ServiceProcess(parts, index);
    // SO_REUSEPORT lets an operator run a second instance beside this one on purpose (--reuse-port).
    // Every request goes through `fetch`, so a reload only has to change which app answers.
    s.server = Bun.serve({ ...serverOptions(parts.log), port, hostname: host, reusePort: true, fetch: (request) => s.answer(request) });
    // The apps read their socket's peer (the demo's per-IP limit) through Elysia's `server`.
    (s.app as { server: Server | null }).server = s.server;
    parts.metrics.inFlight.collectWith(() => [{ labels: {}, value: s.server.pendingRequests }]);
    await s.indexServed(index);
    return s;
  }

  private serving(app: App): App {
    this.running.set(app, { count: 0, idle: null });
    if (this.server) (app as { server: Server | null }).server = this.server;
    return app;
  }

  /**
   * One request, answered by the app current when it arrived. Once a shutdown has begun the answer
   * says `Connection: close`: the connection closes after it, and a client knows not to reuse it.
   */
  private async answer(request: Request): Promise<Response> {
    const app = this.app;
    const run = this.running.get(app)!;
    run.count++;
    try {
      const response = await app.fetch(withRoutablePath(request));
      if (this.stopping) closeAfter(response);
      return response;
    } finally {
      if (--run.count === 0) run.idle?.();
    }
  }

  get port(): number {
    return this.server?.port ?? this.parts.config.port;
  }

  get indexInfo() {
    return this.index.info;
  }

  /** Where the served index's search tables are (FacilityIndex.searchTables). */
  get searchTables(): string {
    return this.index.searchTables;
  }

  /** True when the new index is being served; false when the reload was refused (old one still serves). */
  async reload(): Promise<boolean> {
    const { log, metrics } = this.parts;
    if (this.stopping || this.reloading) {
      log({ level: 'warn', msg: 'reload ignored: a reload or shutdown is already in progress' });
      return false;
    }
    this.reloading = true;
    const started = performance.now();
    let opened: FacilityIndex | undefined;
    try {
      let spatial: SpatialHandle;
      try {
        opened = await this.parts.openIndex();
        // At start a damaged search file still leaves the rest to serve; here the previous release can serve it all.
        if (opened.searchDamaged) throw new Error(opened.searchTables);
        // In place from the release's area file, else built on a worker thread while the old app answers.
        spatial = this.parts.prepareSpatial(opened);
        await spatial.ready;
      } catch (e) {
        opened?.close();
        metrics.indexReloads.inc({ result: 'failed' });
        log({ level: 'error', msg: `reload refused, still serving the previous index: ${(e as Error).message}`, ...describe(this.index) });
        return false;
      }
      // A SIGTERM that came while the new index was being prepared wins: drop it.
      if (this.stopping) {
        opened.close();
        return false;
      }
      this.handingOver = this.handOver(opened, spatial);
      try {
        await this.handingOver;
      } catch (e) {
        // The new app could not be built (handOver changes nothing before that succeeds).
        opened.close();
        metrics.indexReloads.inc({ result: 'failed' });
        log({ level: 'error', msg: `reload failed at hand-over, still serving the previous index: ${(e as Error).message}`, ...describe(this.index) });
        return false;
      }
      await this.indexServed(opened);
      log({
        level: 'info',
        msg: 'index reloaded',
        ...describe(opened),
        took_ms: Math.round(performance.now() - started),
        area_index: spatial.source,
      });
      return true;
    } finally {
      this.reloading = false;
      this.handingOver = null;
    }
  }

  // A failure here (state store away) must not refuse or undo the index: the events of a release
  // not marked done are made at the next start or reload.
  private async indexServed(index: FacilityIndex): Promise<void> {
    try {
      await this.parts.onIndexServed?.(index);
    } catch (e) {
      this.parts.log({ level: 'error', msg: `webhook events of the new release not queued yet: ${(e as Error).message}` });
    }
  }

  /**
   * Makes a new app over `next` the one that answers, then closes the previous index once the
   * requests it is answering have ended. The new app's ops routes point the index gauge of the
   * shared metrics at `next` (src/api/ops.ts).
   */
  private async handOver(next: FacilityIndex, spatial: SpatialHandle): Promise<void> {
    const { metrics, log } = this.parts;
    const prev = { app: this.app, index: this.index };
    const app = this.serving(this.parts.makeApp(next, spatial));
    this.app = app;
    this.index = next;
    metrics.indexReloads.inc({ result: 'ok' });
    // From here the new app serves; a failure to retire the old one is only worth a line.
    try {
      await this.retired(prev.app);
      prev.index.close();
    } catch (e) {
      log({ level: 'warn', msg: `previous index not closed cleanly after reload: ${(e as Error).message}` });
    }
  }

  /** Resolves once `app` answers no request (it gets no new ones: it is no longer current). */
  private retired(app: App): Promise<void> {
    const run = this.running.get(app)!;
    const done = run.count === 0 ? Promise.resolve() : new Promise<void>((resolve) => (run.idle = resolve));
    return done.then(() => void this.running.delete(app));
  }

  /** Graceful stop; resolves to the process exit code (0 clean, 1 if requests had to be cut off). */
  async shutdown(signal: string): Promise<number> {
    const { log, lifecycle, store, config } = this.parts;
    if (this.stopping) return 0;
    this.stopping = true;
    lifecycle.draining = true;
    log({ level: 'info', msg: `${signal}: stopping; no new connections, finishing in-flight requests`, in_flight: this.server.pendingRequests });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const drained = Promise.all([this.server.stop(false), this.handingOver?.catch(() => undefined)]).then(() => true);
    const timedOut = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), config.shutdownTimeoutMs)));
    const clean = await Promise.race([drained, timedOut]);
    clearTimeout(timer);
    if (!clean) {
      log({ level: 'error', msg: `in-flight requests still running after ${config.shutdownTimeoutMs} ms; closing their connections`, in_flight: this.server.pendingRequests });
      await this.server.stop(true);
    }
    await this.parts.stopBackground?.();
    // Each counted call was committed before its response; closing checkpoints the WAL.
    await store.close();
    this.index.close();
    log({ level: 'info', msg: 'stopped', clean });
    return clean ? 0 : 1;
  }
}

/** Marks a response as the last on its connection; a response whose headers cannot change is left as it is. */
function closeAfter(response: Response): void {
  try {
    response.headers.set('connection', 'close');
  } catch {
    // immutable headers (a Response.error or redirect): the close still comes, unannounced
  }
}
