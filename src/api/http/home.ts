import type { AppDeps } from '../deps';
import { VERSION } from '../../version';
import { metaFor, type RequestFacts } from './request-context';

/**
 * `GET /` for a program (Accept: application/json without text/html): where to go from here, in
 * the usual envelope. Browsers get the web page (src/api/web.ts), which asks this for JSON callers.
 */
export function homePointer(facts: RequestFacts, clock: AppDeps['clock']) {
  return {
    data: {
      service: 'facility-score',
      version: VERSION,
      page: '/',
      docs: '/swagger',
      openapi: '/swagger/json',
      status: '/api/v1/status',
      demo: '/api/v1/demo/facility?address=',
    },
    meta: metaFor(facts, clock),
  };
}
