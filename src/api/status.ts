import { Elysia, t } from 'elysia';
import type { AppDeps } from './deps';
import { Envelope, errorResponses } from '../shared/envelope';
import { metaFor, requestContext } from './http/request-context';
import { IndexInfo } from '../index/model';
import { Release } from '../index/history-tables/model';
import { VERSION } from '../version';

const StatusData = t.Object({
  service: t.Literal('facility-score'),
  version: t.String(),
  dataset: IndexInfo,
  notice: t.String({ description: 'Plain-language statement of what the data is' }),
  releases: t.Array(Release, {
    description: 'Every weekly release this index carries history for, oldest first; the last is the data served (docs/ingest.md)',
  }),
});

/** GET /api/v1/status (public): what data this instance serves, and whether it is real. */
export function statusRoutes(deps: AppDeps) {
  return new Elysia({ name: 'status-routes' }).use(requestContext).get(
    '/api/v1/status',
    ({ facts }) => {
      const info = deps.index.info;
      return {
        data: {
          service: 'facility-score' as const,
          version: VERSION,
          dataset: info,
          notice: info.fictitious
            ? 'FICTITIOUS SAMPLE: every facility, ID (all start with 99) and score in this dataset is invented. It is not EPA data.'
            : `EPA ECHO data as of ${info.as_of}; scores are computed by facility-score method ${info.score_version}.`,
          releases: [...deps.index.releases()],
        },
        meta: metaFor(facts, deps.clock),
      };
    },
    {
      response: { 200: Envelope(StatusData), ...errorResponses('INTERNAL_ERROR') },
      detail: { tags: ['Service'], summary: 'Dataset and service status (public)' },
    },
  );
}
