import { swagger } from '@elysiajs/swagger';
import { Elysia } from 'elysia';
// Served by us from the npm package (and embedded in the compiled binary), never from a CDN.
import swaggerUiBundle from 'swagger-ui-dist/swagger-ui-bundle.js' with { type: 'file' };
import swaggerUiCss from 'swagger-ui-dist/swagger-ui.css' with { type: 'file' };
import { VERSION } from '../../version';
import { ErrorEnvelope, Meta } from '../../shared/envelope';
import { finishDocument } from './openapi-document';
import { acceptsGzip } from './compression';
import { AppError } from '../../errors';
import { readFileSync } from 'node:fs';

const ASSETS = '/swagger/assets';

/**
 * The plugin's page template lets us choose only the URL of its one script (`scalarCDN`), so that
 * script is this loader: it pulls Swagger UI's CSS and bundle from our own routes and starts it on
 * the document the plugin serves. `validatorUrl: null` stops Swagger UI calling validator.swagger.io.
 */
function bootJs(css: string, bundle: string): string {
  return `(function () {
  // The finished document (not the plugin's raw one at data-url), resolved against the page's parent
  // folder, so /swagger and /swagger/ (and a proxy's path prefix) all find it.
  var base = location.pathname.replace(/[/]+$/, '').replace(/[^/]*$/, '');
  var spec = base + 'swagger/json';
  var css = document.createElement('link');
  css.rel = 'stylesheet';
  css.href = '${ASSETS}/${css}';
  document.head.appendChild(css);
  var root = document.createElement('div');
  root.id = 'swagger-ui';
  document.body.appendChild(root);
  var js = document.createElement('script');
  js.src = '${ASSETS}/${bundle}';
  js.onload = function () {
    window.ui = SwaggerUIBundle({ url: spec, dom_id: '#swagger-ui', deepLinking: true, validatorUrl: null, defaultModelsExpandDepth: 0 });
  };
  document.body.appendChild(js);
})();
`;
}

type DocsFile = { name: string; type: string; body: Uint8Array; gzip: Uint8Array };

/** A Swagger UI file under a name with its content's hash (`swagger-ui-bundle.<hash>.js`), and its gzip form (made once). */
function hashedFile(path: string, base: string, ext: string, type: string): DocsFile {
  const body = new Uint8Array(readFileSync(path));
  let gzip: Uint8Array | null = null;
  return {
    name: `${base}.${Bun.hash(body).toString(36)}.${ext}`,
    type,
    body,
    get gzip() {
      return (gzip ??= Bun.gzipSync(body, { level: 9 }));
    },
  };
}

/**
 * Swagger UI's files, under names with their content's hash so they are cached for good (`immutable`),
 * and our loader, which names them and is revalidated; all hidden from the document. Read on the
 * docs page's first request, not at start.
 */
function docsAssets() {
  const hidden = { detail: { hide: true } };
  let files: Map<string, DocsFile> | null = null;
  let boot = '';
  const load = () => {
    if (files) return files;
    const css = hashedFile(swaggerUiCss, 'swagger-ui', 'css', 'text/css; charset=utf-8');
    const bundle = hashedFile(swaggerUiBundle, 'swagger-ui-bundle', 'js', 'text/javascript; charset=utf-8');
    boot = bootJs(css.name, bundle.name);
    return (files = new Map([css, bundle].map((f) => [f.name, f])));
  };
  return new Elysia({ name: 'docs-assets' })
    .get(`${ASSETS}/boot.js`, () => {
      load();
      return new Response(boot, { headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' } });
    }, hidden)
    .get(`${ASSETS}/:name`, ({ params, request }) => {
      const file = load().get(params.name);
      if (!file) throw new AppError('NOT_FOUND', `No such docs asset: ${params.name}`);
      const headers: Record<string, string> = { 'content-type': file.type, 'cache-control': 'public, max-age=31536000, immutable', vary: 'Accept-Encoding' };
      if (!acceptsGzip(request.headers.get('accept-encoding'))) return new Response(file.body, { headers });
      headers['content-encoding'] = 'gzip';
      return new Response(file.gzip, { headers });
    }, hidden);
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
