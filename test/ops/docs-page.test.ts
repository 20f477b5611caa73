import { describe, expect, it } from 'bun:test';
import { join } from 'node:path';
import { makeWorld } from '../helpers';

const PKG = join(import.meta.dir, '..', '..', 'node_modules', 'swagger-ui-dist');
const w = makeWorld();

/** Every URL a page or script would make the browser fetch: src/href attributes and string literals ending in .js/.css. */
function referencedUrls(text: string): string[] {
  const attrs = [...text.matchAll(/\b(?:src|href)\s*=\s*["']([^"']+)["']/g)].map((m) => m[1]!);
  const literals = [...text.matchAll(/["']([^"'\s]+\.(?:js|css))["']/g)].map((m) => m[1]!);
  return [...new Set([...attrs, ...literals])];
}

describe('/swagger works with no network: every asset is served by us', () => {
  it('the page loads only same-origin paths (no CDN, no protocol-relative URL)', async () => {
    const res = await w.call('/swagger');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const html = await res.text();
    const urls = referencedUrls(html);
    expect(urls).toContain('/swagger/assets/boot.js');
    for (const u of urls) expect(u).toMatch(/^\/[^/]/);
    expect(html).not.toMatch(/https?:\/\//);
  });

  it('the loader pulls Swagger UI from our routes, reads our document and turns the remote validator off', async () => {
    const res = await w.call('/swagger/assets/boot.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('javascript');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const js = await res.text();
    const urls = referencedUrls(js).sort();
    expect(urls).toHaveLength(2);
    expect(urls[0]).toMatch(/^\/swagger\/assets\/swagger-ui-bundle\.[0-9a-z]+\.js$/);
    expect(urls[1]).toMatch(/^\/swagger\/assets\/swagger-ui\.[0-9a-z]+\.css$/);
    expect(js).toContain('validatorUrl: null');
    expect(js).not.toMatch(/https?:\/\//);
  });

  /** The hashed URL the loader names for `file` (swagger-ui-bundle.js -> /swagger/assets/swagger-ui-bundle.<hash>.js). */
  const hashedUrl = async (file: string) => {
    const [base, ext] = [file.slice(0, file.lastIndexOf('.')), file.slice(file.lastIndexOf('.') + 1)];
    const js = await (await w.call('/swagger/assets/boot.js')).text();
    return referencedUrls(js).find((u) => new RegExp(`/${base}\\.[0-9a-z]+\\.${ext}$`).test(u))!;
  };

  it.each([
    ['swagger-ui-bundle.js', 'javascript'],
    ['swagger-ui.css', 'text/css'],
  ])('/swagger/assets/%s, under its hashed name, is the npm package file, byte for byte, cached for good', async (file, type) => {
    const res = await w.call(await hashedUrl(file), { headers: { 'accept-encoding': 'identity' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain(type);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const served = new Uint8Array(await res.arrayBuffer());
    const shipped = new Uint8Array(await Bun.file(join(PKG, file)).arrayBuffer());
    expect(served.length).toBe(shipped.length);
    expect(Buffer.compare(served, shipped)).toBe(0);
    const zipped = await w.call(await hashedUrl(file), { headers: { 'accept-encoding': 'gzip' } });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(Buffer.compare(Bun.gunzipSync(new Uint8Array(await zipped.arrayBuffer())), shipped)).toBe(0);
  });

  it('an old name of a docs asset is 404', async () => {
    expect((await w.call('/swagger/assets/swagger-ui-bundle.js')).status).toBe(404);
  });

  it('the stylesheet pulls nothing remote (fonts and images are system fonts and data: URIs)', async () => {
    const css = await (await w.call(await hashedUrl('swagger-ui.css'))).text();
    const urls = [...css.matchAll(/url\(\s*["']?([^"')]+)/g)].map((m) => m[1]!);
    expect(urls.length).toBeGreaterThan(0);
    for (const u of urls) expect(u).toStartWith('data:');
    expect(css).not.toContain('@import');
  });

  it('the document the page reads is served at /swagger/json', async () => {
    const res = await w.call('/swagger/json');
    expect(res.status).toBe(200);
    expect(((await res.json()) as { openapi: string }).openapi).toMatch(/^3\./);
  });
});
