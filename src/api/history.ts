import { Elysia } from 'elysia';
import type { AppDeps } from './deps';
import { apiKeyAuth, apiKeyErrors } from './http/api-key-auth';
import { datasetMeta, Envelope } from '../shared/envelope';
import { metaFor } from './http/request-context';
import { RegistryIdParam } from '../facilities/model';
import { FacilityHistory } from '../history/model';
import { facilityHistory } from '../history/service';
import { notModified, releaseTag, weakTag } from './http/conditional';

export function historyRoutes(deps: AppDeps) {
  // a facility's history changes only with the release (docs/api.md, "Conditional requests")
  const etag = weakTag(releaseTag(deps.index.info), 'history');
  const dataset = datasetMeta(deps.index.info);
  return new Elysia({ name: 'history-routes' }).use(apiKeyAuth(deps)).get(
    '/api/v1/facility/:registry_id/history',
    ({ params, facts, request, set }) => {
      const data = facilityHistory(deps.index, params.registry_id);
      return notModified(request, etag, set, 'Accept-Encoding') ?? { data, meta: metaFor(facts, deps.clock, dataset) };
    },
    {
      apiKey: 'history',
      params: RegistryIdParam,
      response: { 200: Envelope(FacilityHistory), ...apiKeyErrors('history', 'NOT_FOUND') },
      detail: {
        tags: ['Facilities'],
        summary: "A facility's score history across the releases this instance holds",
        description:
          'Starter plan or above (Free: 403 TIER_RESTRICTED). One entry per weekly release in which the facility\'s score, a ' +
          'component, its enforcement flag or its presence changed, newest first; `change` says what happened since the entry ' +
          "before ('rescored': only the score method changed). A removed facility keeps its history. Unknown ID: 404 NOT_FOUND. " +
          'Counts as one call when the ID is well-formed. Details: docs/api.md.',
        security: [{ apiKey: [] }],
        'x-conditional': true,
      },
    },
  );
}
