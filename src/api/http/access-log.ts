import { Elysia, ElysiaCustomStatusResponse, StatusMap } from 'elysia';
import type { AppDeps } from '../deps';
import { requestContext } from './request-context';
import { UNMATCHED_ROUTE } from '../../ops/service-metrics';

/** Probe and scrape routes: answered many times a minute, so a success is not worth a log line. */
const QUIET_ROUTES = new Set(['/healthz', '/readyz', '/metrics']);

function toStatus(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') return (StatusMap as Record<string, number>)[v];
  return undefined;
}

/** The status that went out: a returned Response or status() wins, then the error handler's, then `set`. */
function statusOf(response: unknown, setStatus: unknown, factsStatus: number | undefined): number {
  if (response instanceof Response) return response.status;
  if (response instanceof ElysiaCustomStatusResponse) return toStatus(response.code) ?? 200;
  return factsStatus ?? toStatus(setStatus) ?? 200;
}

/**
 * After every response (success, error, unknown route): one structured JSON access-log line and the
 * request metrics. The line names the route pattern, never the raw path or query (which carry the
 * facilities and addresses a customer looked up), and the account, never the key.
 * Registered before the feature routes (Elysia applies hooks to routes added after them).
 */
export function accessLog(deps: Pick<AppDeps, 'metrics' | 'config' | 'log'>) {
  const metrics = deps.metrics;
  return new Elysia({ name: 'access-log' }).use(requestContext).onAfterResponse({ as: 'global' }, ({ request, route, set, responseValue, facts }) => {
    const status = statusOf(responseValue, set.status, facts.status);
    const seconds = (performance.now() - facts.startedAt) / 1000;
    const pattern = route || UNMATCHED_ROUTE;
    // From the facts, not the response's X-Cache header: reading a returned Response's headers builds
    // its Headers object, a cost on every lookup (src/api/http/json-response.ts returns a Response).
    const cache = facts.cache;
    metrics.observe({ method: request.method, route: pattern, status, seconds, errorCode: facts.errorCode, cache });
    if (!deps.config.logRequests || (QUIET_ROUTES.has(pattern) && status < 400)) return;
    deps.log({
      level: status >= 500 ? 'error' : 'info',
      msg: 'request',
      request_id: facts.id,
      method: request.method,
      route: pattern,
      status,
      duration_ms: Math.round(seconds * 100_000) / 100,
      tier: facts.tier ?? null,
      account_id: facts.accountId ?? null,
      error_code: facts.errorCode ?? null,
      ...(cache ? { cache } : {}),
    });
  });
}
