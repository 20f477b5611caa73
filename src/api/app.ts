import { Elysia } from 'elysia';
import { accountRoutes } from './account';
import { areaRoutes } from './area';
import { demoRoutes } from './demo';
import type { AppDeps } from './deps';
import { facilityRoutes } from './facilities';
import { historyRoutes } from './history';
import { keyPlanRoutes } from './key-plan';
import { errorHandler } from './http/error-handler';
import { requestContext } from './http/request-context';
import { bodySizeGuard, targetGuard } from './http/request-guard';
import { cors } from './http/cors';
import { compression } from './http/compression';
import { openApiDocs } from './http/openapi';
import { portfolioRoutes } from './portfolio';
import { accessLog } from './http/access-log';
import { opsRoutes } from './ops';
import { reportRoutes } from './reports';
import { searchRoutes } from './search';
import { siteReportRoutes } from './site-report';
import { statusRoutes } from './status';
import { watchlistRoutes } from './watchlists';
import { webRoutes } from './web';
import { FacilitySearch } from '../search/facility-search';
import { offlineLocator } from '../site-report/locate';

/**
 * Composes the service from its parts, all passed in through `deps` (src/api/deps.ts): the index, the
 * state store and the process-wide parts (`processParts`: metrics, the JWT verifier, the report
 * cache) are built by the caller. Building the app opens nothing and listens on nothing; the demo
 * only parses its trusted-proxy list and the ops routes point the index gauge at `deps.index`.
 */
export function createApp(deps: AppDeps) {
  const app: Elysia = new Elysia();
  // One word search and one offline locator per index, shared by the routes that read addresses
  // (null search: the index has no search tables, and those routes say so).
  const search = FacilitySearch.open(deps.index);
  const locator = offlineLocator(deps.index, search);
  const routes = () => app.routes.map((r) => ({ method: r.method, path: r.path }));
  return app
    .use(requestContext)
    .use(targetGuard)
    .use(cors(deps))
    .use(errorHandler(deps, routes))
    .use(accessLog(deps))
    .use(bodySizeGuard)
    .use(openApiDocs(() => app))
    .use(opsRoutes(deps))
    .use(statusRoutes(deps))
    .use(facilityRoutes(deps))
    // Every route from here on may answer gzip-compressed; the probes, status and the lookup above
    // always answer small and so pay nothing for it (src/api/http/compression.ts)
    .use(compression(deps.config.compressMinBytes))
    .use(historyRoutes(deps))
    .use(areaRoutes(deps, locator))
    .use(portfolioRoutes(deps))
    .use(searchRoutes(deps, search))
    .use(reportRoutes(deps))
    .use(siteReportRoutes(deps, locator))
    .use(watchlistRoutes(deps))
    .use(accountRoutes(deps))
    .use(keyPlanRoutes(deps))
    .use(demoRoutes(deps, search))
    .use(webRoutes(deps));
}

export type App = ReturnType<typeof createApp>;
