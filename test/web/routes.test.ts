import { beforeAll, describe, expect, it } from 'bun:test';
import { ensureWeb } from '../../scripts/build-web';
import { loadWebAssets, type WebAssets } from '../../src/web/assets';
import { json, makeWorld, type TestWorld } from '../helpers';

let w: TestWorld;
let assets: WebAssets;
beforeAll(async () => {
  await ensureWeb(() => {});
  assets = (await loadWebAssets())!;
  w = makeWorld({ deps: { web: assets } });
});

/** The policy as a map of directive -> sources. */
function policy(header: string | null): Map<string, string[]> {
  return new Map((header ?? '').split(';').map((d) => d.trim().split(/\s+/)).filter((d) => d[0]).map(([name, ...srcs]) => [name!, srcs]));
}

const referenced = (html: string) => [...html.matchAll(/\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]!).filter((u) => u.startsWith('/assets/'));

describe('GET / serves the page for people', () => {
  it('with a strict Content-Security-Policy: same origin only, no inline script or style', async () => {
    const res = await w.call('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = policy(res.headers.get('content-security-policy'));
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('style-src')).toEqual(["'self'"]);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(res.headers.get('content-security-policy')).not.toContain('unsafe');
    const html = await res.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // every script has a src
    expect(html).not.toMatch(/\sstyle=|<style|\son[a-z]+=/i);
    expect(html).not.toMatch(/https?:\/\//);
  });

  it('the page revalidates (no-cache + ETag, 304 when unchanged); hashed assets are immutable for a year', async () => {
    const page = await w.call('/');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const etag = page.headers.get('etag')!;
    expect((await w.call('/', { headers: { 'if-none-match': etag } })).status).toBe(304);
    const urls = referenced(await page.text());
    expect(urls.length).toBe(3); // icon, stylesheet, script
    for (const url of urls) {
      expect(url).toMatch(/^\/assets\/[a-z]+-[0-9a-z]{8}\.(js|css|svg)$/);
      const res = await w.call(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    }
  });

  it('gzip when the browser accepts it, the same bytes once inflated', async () => {
    const js = referenced(await (await w.call('/')).text()).find((u) => u.endsWith('.js'))!;
    const plain = new Uint8Array(await (await w.call(js)).arrayBuffer());
    const zipped = await w.call(js, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(zipped.headers.get('vary')).toBe('accept-encoding');
    expect(Bun.gunzipSync(new Uint8Array(await zipped.arrayBuffer()))).toEqual(plain);
  });

  it('the first view is at most 300 KB gzip in total, and the script names no other host', async () => {
    const page = await w.call('/', { headers: { 'accept-encoding': 'gzip' } });
    let total = (await page.arrayBuffer()).byteLength;
    const html = new TextDecoder().decode(assets.get('/')!.body);
    for (const url of referenced(html)) total += (await (await w.call(url, { headers: { 'accept-encoding': 'gzip' } })).arrayBuffer()).byteLength;
    expect(total).toBeLessThanOrEqual(300 * 1024);
    // In every script (the map's chunk included), only XML namespace names (identifiers, never fetched) look like URLs.
    const scripts = [...assets].filter(([path]) => path.endsWith('.js')).map(([, a]) => new TextDecoder().decode(a.body));
    expect(scripts.length).toBeGreaterThanOrEqual(2);
    const hosts = new Set(scripts.flatMap((js) => [...js.matchAll(/https?:\/\/([a-z0-9.-]+)/gi)].map((m) => m[1])));
    expect([...hosts].filter((h) => h !== 'www.w3.org')).toEqual([]);
  });

  it('an unknown asset is a 404 envelope; the page routes stay out of the OpenAPI document', async () => {
    const res = await w.call('/assets/main-00000000.js');
    expect(res.status).toBe(404);
    expect((await json(res)).error.code).toBe('NOT_FOUND');
    const doc = await json(await w.call('/swagger/json'));
    expect(Object.keys(doc.paths).filter((p) => p === '/' || p.startsWith('/assets'))).toEqual([]);
  });

  it('a program asking / for JSON gets the pointer to the docs in the envelope; a browser\'s Accept gets the page', async () => {
    const pointer = await w.call('/', { headers: { accept: 'application/json' } });
    expect((await json(pointer)).data).toMatchObject({ page: '/', docs: '/swagger', openapi: '/swagger/json', status: '/api/v1/status' });
    const browser = await w.call('/', { headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' } });
    expect(browser.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect((await w.call('/', { headers: { accept: '*/*' } })).headers.get('content-type')).toBe('text/html; charset=utf-8');
  });

  it('a checkout that has not built the page answers / with how to build it', async () => {
    const bare = makeWorld();
    const res = await bare.call('/');
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('npx bun run scripts/build-web.ts');
  });
});
