import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import puppeteer, { type Browser } from 'puppeteer-core';
import { makeWorld } from '../helpers';

// A real browser on the real page: the document's URL is resolved by the page's own script.
const w = makeWorld();
let server: ReturnType<typeof Bun.serve>;
let browser: Browser;

beforeAll(async () => {
  server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: (r) => w.app.handle(r) });
  browser = await puppeteer.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
});
afterAll(async () => {
  await browser?.close();
  server?.stop(true);
});

describe('the docs page in Chromium', () => {
  it.each(['/swagger', '/swagger/'])('%s loads the API definition and lists the operations', async (path) => {
    const page = await browser.newPage();
    try {
      const asked: string[] = [];
      page.on('request', (r) => asked.push(new URL(r.url()).pathname));
      await page.goto(`http://127.0.0.1:${server.port}${path}`, { waitUntil: 'load' });
      await page.waitForSelector('.opblock-summary-path', { timeout: 15_000 });
      const text = await page.evaluate('document.body.innerText') as string;
      expect(text).not.toContain('Failed to load API definition');
      expect(text).toContain('/api/v1/facility/{registry_id}');
      expect(asked).toContain('/swagger/json');
    } finally {
      await page.close();
    }
  }, 30_000);
});
