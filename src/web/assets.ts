import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { IS_COMPILED_BINARY } from '../worker-url';

/** One file of the page, ready to serve: its body and its gzip form (made once, on its first request). */
export type WebAsset = { type: string; body: Uint8Array; gzip: Uint8Array; etag: string; immutable: boolean };
/** URL path -> file; `/` is the page itself. */
export type WebAssets = ReadonlyMap<string, WebAsset>;

type WebBundle = { source_hash: string; files: { path: string; type: string; body: string }[] };

/** Where `scripts/build-web.ts` writes the bundle in a source checkout. */
export const WEB_BUNDLE_PATH = join(import.meta.dir, '..', '..', 'dist', 'web', 'bundle.json');

function toAssets(bundle: WebBundle): WebAssets {
  const assets = new Map<string, WebAsset>();
  for (const f of bundle.files) {
    const body = new TextEncoder().encode(f.body);
    let gzip: Uint8Array | null = null;
    assets.set(f.path, {
      type: f.type,
      body,
      // Made on first use, not at start: level 9 of the whole page was a visible share of the binary's start.
      get gzip() {
        return (gzip ??= Bun.gzipSync(body, { level: 9 }));
      },
      etag: `"${bundle.source_hash}-${Bun.hash(body).toString(36)}"`,
      // Hashed names change with their content; the page's own URL does not.
      immutable: f.path !== '/',
    });
  }
  return assets;
}

/**
 * The page's files: embedded in the compiled binary by scripts/build.ts (the JSON import below is
 * bundled into the executable), read from dist/web in a checkout (`npm start` builds it first).
 * Null when a checkout has not built them: the app then answers `/` with how to build.
 */
export async function loadWebAssets(): Promise<WebAssets | null> {
  if (IS_COMPILED_BINARY) {
    const mod = (await import('../../dist/web/bundle.json', { with: { type: 'json' } })) as { default: WebBundle };
    return toAssets(mod.default);
  }
  if (!existsSync(WEB_BUNDLE_PATH)) return null;
  return toAssets(JSON.parse(readFileSync(WEB_BUNDLE_PATH, 'utf8')) as WebBundle);
}
