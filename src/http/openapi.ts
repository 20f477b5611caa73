import { swagger } from '@elysiajs/swagger';
import { VERSION } from '../version';

/** OpenAPI document at /swagger/json and the docs UI at /swagger. */
export function openApiDocs() {
  return swagger({
    path: '/swagger',
    documentation: {
      info: {
        title: 'facility-score API',
        version: VERSION,
        description: 'Facility Compliance Scoring Service: EPA Registry ID lookups, radius search, portfolios, PDF dossiers.',
      },
      components: {
        securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
      },
    },
  });
}
