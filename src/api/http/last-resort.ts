import type { Log } from '../../log';
import { errorBody } from '../../shared/envelope';
import { UNMATCHED_ROUTE } from '../../ops/service-metrics';
import { INTERNAL_MESSAGE } from './error-handler';
import { newRequestId } from './request-context';

/**
 * What Bun.serve answers when the app itself fails (its error handler throws): still the envelope,
 * with a request id, and one log line naming the error, its stack a JSON string. Before, Bun wrote
 * its developer page (the working directory, a stack, source) to the client and a multi-line
 * stack to the log. Bun hands this hook no request: the line names no method or route.
 */
export function lastResort(log: Log, now: () => number = Date.now) {
  return (error: Error): Response => {
    const id = newRequestId();
    log({ level: 'error', msg: 'request', request_id: id, route: UNMATCHED_ROUTE, status: 500, error_code: 'INTERNAL_ERROR', error: `${error.name}: ${error.message}`, stack: error.stack });
    const body = errorBody('INTERNAL_ERROR', 500, INTERNAL_MESSAGE, { request_id: id, timestamp: new Date(now()).toISOString(), response_time_ms: 0 });
    return Response.json(body, { status: 500, headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': id } });
  };
}
