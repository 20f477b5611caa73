import { Elysia } from 'elysia';
import type { AppDeps } from './deps';
import { errorResponses } from '../shared/envelope';
import { metaFor, requestContext } from './http/request-context';
import { censusGeocoder } from '../demo/census-geocoder';
import { clientResolver, socketPeer } from '../demo/client-ip';
import { countDemoRequest } from '../access/demo-window';
import { geocoderChain } from '../demo/geocoder';
import { DemoExamplesResponse, DemoQuery, DemoResponse } from '../demo/model';
import { demoExamples, type DemoExample } from '../demo/examples';
import { offlineGeocoder } from '../demo/offline-geocoder';
import { searchFallbackGeocoder } from '../demo/search-fallback';
import type { FacilitySearch } from '../search/facility-search';
import { demoLookup } from '../demo/service';

/** The public demo lookup by street address, 5 per IP per rolling hour (docs/demo.md). */
export function demoRoutes(deps: AppDeps, search: FacilitySearch | null) {
  // Built now, so a bad trusted-proxy CIDR stops the service at start, not at the first request.
  const clientOf = clientResolver(deps.config.trustedProxies);
  const peerOf = deps.peerAddress ?? socketPeer;
  const { geocoderUrl, geocoderBenchmark, geocoderTimeoutMs } = deps.config;
  const external = deps.geocoder ?? (geocoderUrl ? censusGeocoder({ url: geocoderUrl, benchmark: geocoderBenchmark, timeoutMs: geocoderTimeoutMs }) : null);
  // The index's own addresses first: exact, then through the search index (unambiguous matches
  // only), both local, so the prospect's address leaves this box only when the index cannot answer.
  const local = [offlineGeocoder(deps.index), ...(search ? [searchFallbackGeocoder(deps.index, search)] : [])];
  const geocoder = geocoderChain([...local, ...(external ? [external] : [])], (name, e) =>
    deps.log({ level: 'warn', msg: 'geocoder failed; falling back', geocoder: name, error: e instanceof Error ? e.message : String(e) }),
  );

  // Picked on first use and kept: the index does not change under an app (a reload builds a new one).
  let examples: DemoExample[] | null = null;

  return new Elysia({ name: 'demo-routes' }).use(requestContext).get(
    '/api/v1/demo/examples',
    ({ facts }) => ({ data: { examples: (examples ??= demoExamples(deps.index, 3)) }, meta: metaFor(facts, deps.clock) }),
    {
      response: { 200: DemoExamplesResponse, ...errorResponses('INTERNAL_ERROR') },
      detail: {
        tags: ['Demo'],
        summary: 'Public: addresses the demo lookup finds in the data served',
        description:
          'Up to three facilities of the served index whose own address the demo lookup resolves back to them (the lowest registry ' +
          'IDs, one per state), with their Registry IDs: the examples the web page offers. Public and not rate limited; it spends ' +
          'none of the 5 hourly demo lookups.',
      },
    },
  ).get(
    '/api/v1/demo/facility',
    async ({ query, facts }) => ({
      data: await demoLookup(deps.index, deps.spatial, geocoder, query.address, deps.config.demoMatchMiles, deps.log),
      meta: metaFor(facts, deps.clock),
    }),
    {
      // Counted in `transform`, before query validation: every request counts, a 422 included,
      // and a client over the limit gets 429 whatever it sends.
      async transform({ request, server, set, facts }) {
        const bucket = clientOf(peerOf(request, server), request.headers.get('x-forwarded-for'));
        if (bucket === null) {
          // No socket peer (in-process call): one shared bucket would let one caller lock out all,
          // so such requests are not limited; a TCP listener always has a peer (docs/demo.md).
          deps.log({ level: 'warn', msg: 'demo request without a peer address; not rate limited', request_id: facts.id });
          return;
        }
        await countDemoRequest(deps.store, bucket, deps.clock(), set.headers as Record<string, string>);
      },
      query: DemoQuery,
      response: { 200: DemoResponse, ...errorResponses('NOT_FOUND', 'VALIDATION_ERROR', 'RATE_LIMIT_EXCEEDED', 'INTERNAL_ERROR', 'SERVICE_UNAVAILABLE') },
      detail: {
        tags: ['Demo'],
        summary: 'Public demo: the facility at a US street address (redacted preview)',
        description:
          'No credentials (an X-API-Key or Authorization header is ignored). Returns name, city, state, overall score and ' +
          'enforcement flag of the facility at the address; score components are always redacted. Limited to 5 requests per client IP ' +
          'per rolling hour, every request counted (422 and 404 included); the 6th gets 429 with Retry-After. 404 when the address ' +
          'cannot be geocoded or no facility is there; 422 when `address` is missing, empty or over 200 characters.',
      },
    },
  );
}
