import { describe, expect, it } from 'bun:test';
import { call, type World } from './world';

/** The web page and every asset it references are served, with the CSP and immutable caching (docs/web.md). */
export function webPageContract(world: () => World) {
  describe('the web page', () => {
    it('/ and the assets it references answer 200', async () => {
      const w = world();
      const page = await call(w, '/');
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toContain("connect-src 'self'");
      const html = await page.text();
      expect(html).toContain('Facility compliance scores');
      const urls = [...html.matchAll(/\b(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
      expect(urls.length).toBeGreaterThan(0);
      for (const url of urls) {
        const res = await call(w, url);
        expect(res.status).toBe(200);
        expect(res.headers.get('cache-control')).toContain('immutable');
        expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(100);
      }
    });
  });
}
