import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { binary, startServe } from './support';
import { removeTempDirs, tempDir } from '../support/temp-dir';

beforeAll(() => void binary(), 120_000);
afterAll(removeTempDirs);

describe('the compiled binary serves the web page', () => {
  it('/ and every asset it references come from inside the executable, with the CSP and immutable caching', async () => {
    const server = await startServe(['--state-dir', tempDir('web-bin')]);
    try {
      const page = await fetch(`${server.base}/`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toContain("connect-src 'self'");
      const html = await page.text();
      expect(html).toContain('Facility compliance scores');
      const urls = [...html.matchAll(/\b(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
      expect(urls.length).toBe(3);
      for (const url of urls) {
        const res = await fetch(`${server.base}${url}`);
        expect(res.status).toBe(200);
        expect(res.headers.get('cache-control')).toContain('immutable');
        expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(100);
      }
    } finally {
      server.proc.kill('SIGKILL');
    }
  }, 60_000);
});
