import { Elysia } from 'elysia';
import type { AppDeps } from './deps';
import { apiKeyAuth, apiKeyErrors } from './http/api-key-auth';
import { jsonResponse } from './http/json-response';
import { datasetMeta } from '../shared/envelope';
import { metaFor } from './http/request-context';
import { FacilityResponse, LookupQuery, RegistryIdParam } from '../facilities/model';
import { lookupFacilityScored } from '../facilities/service';
import { TIER_RULES } from '../tiers';
import { notModified, releaseTag, weakTag } from './http/conditional';

export function facilityRoutes(deps: AppDeps) {
  const release = releaseTag(deps.index.info);
  const dataset = datasetMeta(deps.index.info);
  return new Elysia({ name: 'facility-routes' }).use(apiKeyAuth(deps)).get(
    '/api/v1/facility/:registry_id',
    // Returned as a ready Response, out of Elysia's per-response normaliser (its union checks of
    // programs, peers and explanation are a visible share of a lookup); test/facilities/stored-lookup.test.ts
    // checks every body of the sample against the schema instead, for every tier.
    // ETag (docs/api.md, "Conditional requests"): the release, the facility's score hash and the caller's view of it.
    ({ params, query, caller, facts, set, request }) => {
      const evidence = query.include === 'evidence';
      const { record, scoreHash } = lookupFacilityScored(deps.index, params.registry_id, caller.tier, evidence);
      // the caller's view: full or redacted (Free), with or without evidence
      const view = TIER_RULES[caller.tier].fullComponents ? (evidence ? 'full-evidence' : 'full') : evidence ? 'redacted-evidence' : 'redacted';
      const etag = weakTag(release, scoreHash, view);
      return notModified(request, etag, set) ?? jsonResponse({ data: record, meta: metaFor(facts, deps.clock, dataset) }, set);
    },
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
        'x-conditional': true,
        'x-compressed': false,
      },
    },
  );
}
