import { swagger } from '@elysiajs/swagger';
import { Elysia } from 'elysia';
// Served by us from the npm package (and embedded in the compiled binary), never from a CDN.
import swaggerUiBundle from 'swagger-ui-dist/swagger-ui-bundle.js' with { type: 'file' };
import swaggerUiCss from 'swagger-ui-dist/swagger-ui.css' with { type: 'file' };
import { VERSION } from '../../version';
import { ErrorEnvelope, Meta } from '../../shared/envelope';
import { finishDocument } from './openapi-document';

const ASSETS = '/swagger/assets';

/**
 * The plugin's page template lets us choose only the URL of its one script (`scalarCDN`), so that
 * script is this loader: it pulls Swagger UI's CSS and bundle from our own routes and starts it on
 * the document the plugin serves. `validatorUrl: null` stops Swagger UI calling validator.swagger.io.
 */
const BOOT_JS = `(function () {
  // The finished document (not the plugin's raw one at data-url), resolved against the page's parent
  // folder, so /swagger and /swagger/ (and a proxy's path prefix) all find it.
  var base = location.pathname.replace(/[/]+$/, '').replace(/[^/]*$/, '');
  var spec = base + 'swagger/json';
  var css = document.createElement('link');
  css.rel = 'stylesheet';
  css.href = '${ASSETS}/swagger-ui.css';
  document.head.appendChild(css);
  var root = document.createElement('div');
  root.id = 'swagger-ui';
  document.body.appendChild(root);
  var js = document.createElement('script');
  js.src = '${ASSETS}/swagger-ui-bundle.js';
  js.onload = function () {
    window.ui = SwaggerUIBundle({ url: spec, dom_id: '#swagger-ui', deepLinking: true, validatorUrl: null, defaultModelsExpandDepth: 0 });
  };
  document.body.appendChild(js);
})();
`;

function asset(path: string, contentType: string) {
  return () => new Response(Bun.file(path), { headers: { 'content-type': contentType, 'cache-control': 'public, max-age=86400' } });
}

/** Swagger UI's files and our loader, at fixed paths under /swagger/assets (hidden from the document). */
function docsAssets() {
  const hidden = { detail: { hide: true } };
  return new Elysia({ name: 'docs-assets' })
    .get(`${ASSETS}/boot.js`, () => new Response(BOOT_JS, { headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' } }), hidden)
    .get(`${ASSETS}/swagger-ui-bundle.js`, asset(swaggerUiBundle, 'text/javascript; charset=utf-8'), hidden)
    .get(`${ASSETS}/swagger-ui.css`, asset(swaggerUiCss, 'text/css; charset=utf-8'), hidden);
}

/** Where the plugin serves its raw document; only our finished one at /swagger/json is public API. */
const RAW_SPEC_PATH = '/swagger/raw.json';

/**
 * OpenAPI document at /swagger/json and the docs UI at /swagger, working with no network. `root` is
 * the whole app: the plugin builds the raw document from every route, and we finish it once
 * (src/api/http/openapi-document.ts), on first request, when every route is registered.
 */
export function openApiDocs(root: () => { handle(request: Request): Promise<Response> }) {
  let finished: unknown = null;
  const docs = swagger({
    path: '/swagger',
    specPath: RAW_SPEC_PATH,
    provider: 'scalar',
    scalarCDN: `${ASSETS}/boot.js`,
    // '' rather than the plugin's default theme CSS, which styles Scalar, not Swagger UI.
    scalarConfig: { customCss: '' },
    documentation: {
      info: {
        title: 'facility-score API',
        version: VERSION,
        description: 'Facility Compliance Scoring Service: EPA Registry ID lookups, radius search, portfolios, PDF dossiers.',
      },
      // Tag order of the docs page; a tag not listed here is shown after these.
      tags: [
        { name: 'Service', description: 'What this instance serves' },
        { name: 'Facilities', description: 'Lookup by EPA Registry ID' },
        { name: 'Area', description: 'Radius search' },
        { name: 'Portfolio', description: 'Batch lookup' },
        { name: 'Reports', description: 'PDF dossiers' },
        { name: 'Account', description: 'API key self-service (JWT)' },
        { name: 'Demo', description: 'Public redacted preview' },
        { name: 'Operations', description: 'Health, readiness and metrics, outside /api/v1 (docs/operations.md)' },
      ],
      components: {
        // The whole closed set of codes in one place; each route's responses list only the codes of each status.
        schemas: { ErrorEnvelope: ErrorEnvelope as object },
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          // Account endpoints only (docs/accounts.md); data endpoints refuse Bearer.
          accountJwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        },
      },
    },
  });
  return new Elysia({ name: 'openapi-docs' })
    .use(docsAssets())
    .use(docs)
    .get(
      '/swagger/json',
      async () => {
        finished ??= finishDocument(await (await root().handle(new Request(`http://openapi.internal${RAW_SPEC_PATH}`))).json(), Meta);
        return finished;
      },
      { detail: { hide: true } },
    );
}
