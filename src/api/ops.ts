import { createHash, timingSafeEqual } from 'node:crypto';
import { Elysia, t } from 'elysia';
import type { AppDeps } from './deps';
import { Envelope, errorResponses } from '../shared/envelope';
import { AppError } from '../errors';
import { metaFor, requestContext } from './http/request-context';
import { VERSION } from '../version';
import { STORE_RETRY_AFTER_S } from '../state/storage-error';

const Health = t.Object({
  status: t.Literal('ok'),
  version: t.String(),
  uptime_s: t.Integer({ minimum: 0 }),
});

const Ready = t.Object({
  status: t.Literal('ready'),
  checks: t.Object({ index: t.Literal('ok'), area_index: t.Literal('ok'), state_store: t.Literal('ok') }),
});

/** A state store that has not committed a write (its heartbeat) within this long counts as not writable. */
const STORE_PING_TIMEOUT_MS = 2000;

async function storeWritable(deps: AppDeps): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), STORE_PING_TIMEOUT_MS)));
  try {
    return await Promise.race([deps.store.ping().catch(() => false), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function sha256(s: string): Buffer {
  return createHash('sha256').update(s).digest();
}

/**
 * Operations endpoints, outside /api/v1 and without API keys: /healthz (the process answers),
 * /readyz (index readable, area index loaded, state store writable, not shutting down) and /metrics (Prometheus;
 * behind a bearer token when `metricsToken` is configured).
 */
export function opsRoutes(deps: AppDeps) {
  const metrics = deps.metrics;
  metrics.describeIndex(deps.index.info);
  metrics.countRenderPool(deps.renderPool);
  const tokenHash = deps.config.metricsToken ? sha256(deps.config.metricsToken) : null;

  return new Elysia({ name: 'ops-routes' })
    .use(requestContext)
    .get(
      '/healthz',
      ({ facts }) => ({
        data: { status: 'ok' as const, version: VERSION, uptime_s: Math.floor(process.uptime()) },
        meta: metaFor(facts, deps.clock),
      }),
      {
        response: { 200: Envelope(Health), ...errorResponses('INTERNAL_ERROR') },
        detail: { tags: ['Operations'], summary: 'Liveness: the process is up and answering (public)', description: 'Checks nothing else, so a slow disk or state store never gets a live process restarted.' },
      },
    )
    .get(
      '/readyz',
      async ({ facts }) => {
        const failed: string[] = [];
        if (deps.lifecycle?.draining) failed.push('shutting down');
        try {
          if (!deps.index.answers()) failed.push('index unreadable');
        } catch {
          failed.push('index unreadable');
        }
        // Lookups, portfolios and reports are answered meanwhile; "ready" means every endpoint is.
        const area = deps.spatial.state;
        if (area !== 'ready') failed.push(area === 'loading' ? 'area index still loading' : 'area index unavailable');
        if (!(await storeWritable(deps))) failed.push('state store not writable');
        if (failed.length > 0) throw new AppError('SERVICE_UNAVAILABLE', `Not ready: ${failed.join('; ')}`, { 'retry-after': String(STORE_RETRY_AFTER_S) });
        return { data: { status: 'ready' as const, checks: { index: 'ok' as const, area_index: 'ok' as const, state_store: 'ok' as const } }, meta: metaFor(facts, deps.clock) };
      },
      {
        response: { 200: Envelope(Ready), ...errorResponses('SERVICE_UNAVAILABLE', 'INTERNAL_ERROR') },
        detail: {
          tags: ['Operations'],
          summary: 'Readiness: index readable, area index loaded, state store writable, not shutting down (public)',
          description:
            '503 SERVICE_UNAVAILABLE names the failing checks. `area index still loading`: right after a start whose index carries no stored area index; ' +
            'lookups, portfolios and reports already answer, the area search answers 503. A load balancer should route only to instances answering 200.',
        },
      },
    )
    .get(
      '/metrics',
      ({ request, set }) => {
        if (tokenHash) {
          const given = /^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1];
          if (!given || !timingSafeEqual(sha256(given), tokenHash)) {
            throw new AppError('UNAUTHENTICATED', 'The metrics endpoint requires `Authorization: Bearer <metrics token>`');
          }
        }
        set.headers['content-type'] = 'text/plain; version=0.0.4; charset=utf-8';
        return metrics.render();
      },
      {
        response: { 200: t.String({ description: 'Prometheus text exposition format 0.0.4' }), ...errorResponses('UNAUTHENTICATED', 'INTERNAL_ERROR') },
        detail: {
          tags: ['Operations'],
          summary: 'Prometheus metrics',
          description:
            'Request counts and latency histogram by route pattern and status, quota rejections by code, report cache outcomes, index and process gauges. ' +
            'No per-key or per-account labels. Public unless the operator sets FCS_METRICS_TOKEN, then `Authorization: Bearer <token>` is required.',
        },
      },
    );
}
