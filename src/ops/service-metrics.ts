import { SCORE_VERSION } from '../scoring/score';
import { GIT_COMMIT, VERSION } from '../version';
import { Counter, Gauge, Histogram, Registry } from './metrics';

/** Latency buckets in seconds: from an in-process lookup's fraction of a millisecond to a cold PDF render (docs/benchmarks.md). */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** Methods outside this set are labelled OTHER, so a client cannot mint new series. */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** Route label of a request that matched no route (its raw path is never a label). */
export const UNMATCHED_ROUTE = '(unmatched)';

/** What the access hook knows about one finished request. */
export type RequestObservation = {
  method: string;
  route: string;
  status: number;
  seconds: number;
  errorCode?: string;
  /** `X-Cache` of a report response (HIT | MISS | BYPASS). */
  cache?: string | null;
};

/**
 * Every metric the service exports. One instance per process (serve.ts), shared by the apps a
 * reload hands over between, so counters do not reset when the index is rotated.
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  /** requestKey's keys, by route, status and method (bounded: route patterns x statuses x known methods). */
  private readonly requestKeys = new Map<string, Map<number, Map<string, string>>>();
  readonly requests = this.registry.register(
    new Counter('fcs_http_requests_total', 'HTTP requests answered, by method, route pattern and status', ['method', 'route', 'status']),
  );
  readonly latency = this.registry.register(
    new Histogram('fcs_http_request_duration_seconds', 'Time from request arrival to response, by method, route pattern and status', ['method', 'route', 'status'], LATENCY_BUCKETS),
  );
  readonly inFlight = this.registry.register(new Gauge('fcs_http_requests_in_flight', 'Requests being processed now', []));
  readonly quotaRejections = this.registry.register(
    new Counter('fcs_quota_rejections_total', 'Calls refused by a quota or rate limit (402 QUOTA_EXHAUSTED, 429 RATE_LIMIT_EXCEEDED / REGENERATE_THROTTLED), by code and route', ['code', 'route']),
  );
  readonly reportCache = this.registry.register(
    new Counter('fcs_report_cache_total', 'PDF report requests by cache outcome (HIT served from cache, MISS rendered and stored, BYPASS rendered but not storable)', ['outcome']),
  );
  readonly reportCacheDisk = this.registry.register(
    new Counter(
      'fcs_report_cache_disk_events_total',
      'What the report cache did on disk: stores, store_errors and read_errors (served uncached), corrupt (failed checksum, re-rendered), expired, swept, evicted (size cap)',
      ['event'],
    ),
  );
  readonly reportCacheMemoryHits = this.registry.register(
    new Counter('fcs_report_cache_memory_hits_total', 'Cache hits served from the report cache\'s memory tier, without reading the file', []),
  );
  readonly reportCacheMemoryBytes = this.registry.register(new Gauge('fcs_report_cache_memory_bytes', 'Bytes of PDFs held in the report cache\'s memory tier', []));
  readonly renderWorkers = this.registry.register(new Gauge('fcs_render_workers', 'Render pool worker threads started (they start with the first heavy request)', []));
  readonly renderJobs = this.registry.register(new Gauge('fcs_render_jobs', 'Render pool jobs now, by state (running on a worker, waiting for one)', ['state']));
  readonly renderRefusals = this.registry.register(
    new Counter('fcs_render_refusals_total', 'Heavy requests refused before any work, by reason (account: over its concurrent limit, 429; busy: every worker busy and the queue full, 503)', ['reason']),
  );
  readonly renderWorkerDeaths = this.registry.register(new Counter('fcs_render_worker_deaths_total', 'Render workers that crashed or exited; each is replaced by the next job', []));
  readonly indexReloads = this.registry.register(new Counter('fcs_index_reloads_total', 'Index reloads (SIGHUP) by result', ['result']));
  readonly buildInfo = this.registry.register(new Gauge('fcs_build_info', 'Always 1; labels say what is running', ['version', 'commit', 'score_method']));
  readonly indexFacilities = this.registry.register(new Gauge('fcs_index_facilities', 'Facilities in the index being served', ['dataset', 'as_of', 'fictitious']));
  readonly rss = this.registry.register(new Gauge('process_resident_memory_bytes', 'Resident set size in bytes', []));
  readonly heap = this.registry.register(new Gauge('fcs_js_heap_used_bytes', 'JavaScript heap in use, bytes', []));
  readonly startTime = this.registry.register(new Gauge('process_start_time_seconds', 'Start time of the process since the Unix epoch, seconds', []));

  constructor(startedAtMs = Date.now() - performance.now()) {
    this.buildInfo.set({ version: VERSION, commit: GIT_COMMIT, score_method: SCORE_VERSION }, 1);
    this.startTime.set({}, Math.round(startedAtMs / 1000));
    this.rss.collectWith(() => [{ labels: {}, value: process.memoryUsage.rss() }]);
    this.heap.collectWith(() => [{ labels: {}, value: process.memoryUsage().heapUsed }]);
  }

  /** Points the index gauge at the index being served: every app's ops routes call it, so a reload's new app re-points it. */
  describeIndex(info: { dataset_name: string; as_of: string; fictitious: boolean; facility_count: number }): void {
    this.indexFacilities.collectWith(() => [{ labels: { dataset: info.dataset_name, as_of: info.as_of, fictitious: info.fictitious }, value: info.facility_count }]);
  }

  /** Exports the disk events of the process's report cache (`serve` builds one; none when it is off). */
  countReportCache(stats: Readonly<Record<string, number>>, memory: { readonly hits: number; readonly bytes: number }): void {
    this.reportCacheDisk.collectWith(() => Object.entries(stats).map(([event, value]) => ({ labels: { event }, value })));
    this.reportCacheMemoryHits.collectWith(() => [{ labels: {}, value: memory.hits }]);
    this.reportCacheMemoryBytes.collectWith(() => [{ labels: {}, value: memory.bytes }]);
  }

  /** Exports the render pool's state (every process has one, built by processParts). */
  countRenderPool(pool: { readonly state: { workers: number; busy: number; waiting: number }; readonly deaths: number; readonly admission: { readonly refused: { account: number; busy: number } } }): void {
    this.renderWorkers.collectWith(() => [{ labels: {}, value: pool.state.workers }]);
    this.renderJobs.collectWith(() => {
      const { busy, waiting } = pool.state;
      return [{ labels: { state: 'running' }, value: busy }, { labels: { state: 'waiting' }, value: waiting }];
    });
    this.renderRefusals.collectWith(() => Object.entries(pool.admission.refused).map(([reason, value]) => ({ labels: { reason }, value })));
    this.renderWorkerDeaths.collectWith(() => [{ labels: {}, value: pool.deaths }]);
  }

  /**
   * The series key of a (method, route, status), made once per combination: making it for both
   * metrics on every request (building a string, then hashing the new string) made `observe` many
   * times dearer. Both metrics have the same label names, so one key names the series in each.
   */
  private requestKey(method: string, route: string, status: number): string {
    let byStatus = this.requestKeys.get(route);
    if (!byStatus) this.requestKeys.set(route, (byStatus = new Map()));
    let byMethod = byStatus.get(status);
    if (!byMethod) byStatus.set(status, (byMethod = new Map()));
    let key = byMethod.get(method);
    if (key === undefined) {
      const labels = { method, route, status };
      byMethod.set(method, (key = this.requests.keyOf(labels)));
      // not only for the key: keyOf records the label values each metric renders its series with
      this.latency.keyOf(labels);
    }
    return key;
  }

  observe(o: RequestObservation): void {
    const key = this.requestKey(KNOWN_METHODS.has(o.method) ? o.method : 'OTHER', o.route, o.status);
    this.requests.incAt(key);
    this.latency.observeAt(key, o.seconds);
    if (o.errorCode === 'QUOTA_EXHAUSTED' || o.errorCode === 'RATE_LIMIT_EXCEEDED' || o.errorCode === 'REGENERATE_THROTTLED') {
      this.quotaRejections.inc({ code: o.errorCode, route: o.route });
    }
    if (o.cache === 'HIT' || o.cache === 'MISS' || o.cache === 'BYPASS') this.reportCache.inc({ outcome: o.cache });
  }

  render(): string {
    return this.registry.render();
  }
}
