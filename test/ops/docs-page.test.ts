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
    const js = await res.text();
    expect(referencedUrls(js).sort()).toEqual(['/swagger/assets/swagger-ui-bundle.js', '/swagger/assets/swagger-ui.css']);
    expect(js).toContain('validatorUrl: null');
    expect(js).not.toMatch(/https?:\/\//);
  });

  it.each([
    ['swagger-ui-bundle.js', 'javascript'],
    ['swagger-ui.css', 'text/css'],
  ])('/swagger/assets/%s is the npm package file, byte for byte', async (file, type) => {
    const res = await w.call(`/swagger/assets/${file}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain(type);
    const served = new Uint8Array(await res.arrayBuffer());
    const shipped = new Uint8Array(await Bun.file(join(PKG, file)).arrayBuffer());
    expect(served.length).toBe(shipped.length);
    expect(Buffer.compare(served, shipped)).toBe(0);
  });

  it('the stylesheet pulls nothing remote (fonts and images are system fonts and data: URIs)', async () => {
    const css = await (await w.call('/swagger/assets/swagger-ui.css')).text();
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
