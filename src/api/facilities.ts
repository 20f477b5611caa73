import { Elysia } from 'elysia';
import type { AppDeps } from './deps';
import { apiKeyAuth, apiKeyErrors } from './http/api-key-auth';
import { jsonResponse } from './http/json-response';
import { metaFor } from './http/request-context';
import { FacilityResponse, LookupQuery, RegistryIdParam } from '../facilities/model';
import { lookupFacility } from '../facilities/service';

export function facilityRoutes(deps: AppDeps) {
  return new Elysia({ name: 'facility-routes' }).use(apiKeyAuth(deps)).get(
    '/api/v1/facility/:registry_id',
    // Returned as a ready Response, out of Elysia's per-response normaliser (its union checks of
    // programs, peers and explanation cost ~0.1 of a lookup); test/facilities/stored-lookup.test.ts
    // checks every body of the sample against the schema instead, for every tier.
    ({ params, query, caller, facts, set }) =>
      jsonResponse({ data: lookupFacility(deps.index, params.registry_id, caller.tier, query.include === 'evidence'), meta: metaFor(facts, deps.clock) }, set),
    {
      apiKey: 'facility',
      params: RegistryIdParam,
      query: LookupQuery,
      response: { 200: FacilityResponse, ...apiKeyErrors('facility', 'NOT_FOUND', 'VALIDATION_ERROR') },
      detail: {
        tags: ['Facilities'],
        summary: 'Look up one facility by EPA Registry ID',
        description:
          'Full record with score components, per-program records, industry peers and the explanation of each component; ' +
          'on the Free tier `score_components`, `programs`, `peers` and `explanation` are each `{redacted: true, message}`. ' +
          'Counts as one call when the ID is well-formed (digits), found or not. A malformed ID is 404 and not counted. ' +
          '`include=evidence` adds `evidence`, the ECHO records beside the score (Starter+; redacted on Free); another `include` value is 422 VALIDATION_ERROR, not counted.',
        security: [{ apiKey: [] }],
      },
    },
  );
}
