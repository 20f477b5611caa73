import { Elysia } from 'elysia';
import type { AppDeps } from '../deps';
import { VERSION } from '../version';
import { metaFor, requestContext } from './request-context';

/**
 * `GET /`: where to go from here, until the web page (src/web/) takes this path; the one place to
 * swap. JSON in the usual envelope, so a curl or a browser both see the way to the docs.
 */
export function home(deps: AppDeps) {
  return new Elysia({ name: 'home' }).use(requestContext).get(
    '/',
    ({ facts }) => ({
      data: {
        service: 'facility-score',
        version: VERSION,
        docs: '/swagger',
        openapi: '/swagger/json',
        status: '/api/v1/status',
        demo: '/api/v1/demo/facility?address=',
      },
      meta: metaFor(facts, deps.clock),
    }),
    { detail: { hide: true } },
  );
}
