import { afterAll, afterEach, beforeAll, describe, expect, it } from 'bun:test';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { ARTIFACTS, mainText, renders, sampleFacility, settled, startWebWorld, useKey, type WebWorld } from './support';

// One serve and one Chromium for the file (each start costs seconds on a loaded machine).
let w: WebWorld;
beforeAll(async () => {
  w = await startWebWorld();
}, 90_000);
afterAll(async () => {
  await w?.close();
});

const pages: Page[] = [];
async function tab(width = 1280): Promise<Page> {
  const page = await w.tab(width);
  pages.push(page);
  return page;
}

// Every test: nothing left loopback, nothing went wrong in the console (CSP violations included).
afterEach(async () => {
  for (const p of pages.splice(0)) await p.close();
  expect(w.watch.offsite).toEqual([]);
  expect(w.watch.errors).toEqual([]);
});

/** Opens a route; after the first load this is a same-document (hash) navigation, as a click would be. */
async function goto(page: Page, hash = '#/lookup'): Promise<void> {
  const before = page.url().startsWith(w.base) ? await renders(page) : 0;
  await page.goto(`${w.base}/${hash}`);
  await settled(page, hash.replace(/^#\//, '').split(/[/?]/)[0]!, before);
}

describe('the page at / without a key', () => {
  it('the address lookup finds a sample facility, shows its redacted preview and how many demo lookups remain', async () => {
    const f = sampleFacility();
    const page = await tab();
    await goto(page);
    expect(await mainText(page)).toContain('What an API key unlocks');
    const before = await renders(page);
    await page.type('input[name=address]', `${f.fac_street}, ${f.fac_city}, ${f.fac_state} ${f.fac_zip}`);
    await page.keyboard.press('Enter');
    await settled(page, 'lookup', before);
    const text = await mainText(page);
    expect(text).toContain(f.fac_name);
    expect(text).toContain(`${f.fac_city}, ${f.fac_state}`);
    expect(text).toContain('Score components are available on the Starter plan or above');
    expect(text).toMatch(/[0-4] of 5 demo lookups left this hour/);
    // The badge carries the band in words, not colour alone.
    expect(await page.$eval('.score-badge', (b) => b.textContent!.replace(/\s+/g, ' ').trim())).toMatch(/^\d+ (Good|Fair|Poor|Very poor)$/);
  }, 30_000);

  it('an unknown address gets the API\'s own sentence, not a broken page', async () => {
    const page = await tab();
    await goto(page, '#/lookup?address=1%20Nowhere%20Lane%2C%20Atlantis%2C%20ZZ%2000000');
    expect(await page.$eval('.result .notice', (n) => (n as HTMLElement).innerText)).toMatch(/\S.*\.$/);
  }, 30_000);

  it('views that need a key say so and point to the free lookup', async () => {
    const page = await tab();
    for (const view of ['search', 'area', 'watchlists']) {
      await goto(page, `#/${view}`);
      expect(await mainText(page)).toContain('needs an API key');
    }
  }, 30_000);
});

describe('the page with a Free key', () => {
  it('a facility page shows the score and the redaction sentence where the breakdown would be, and the 403 sentence for the map', async () => {
    const f = sampleFacility();
    const page = await tab();
    await goto(page);
    await useKey(page, w.keys.free);
    await goto(page, `#/facility/${f.registry_id}`);
    const text = await mainText(page);
    expect(text).toContain(f.fac_name);
    expect(await page.$$eval('.gauge', (g) => g.length)).toBe(1);
    expect(await page.$eval('.redaction', (n) => (n as HTMLElement).innerText)).toBe('Score components are available on the Starter plan or above');
    expect(await page.$$('meter')).toHaveLength(0);
    await goto(page, '#/area?lat=41.81&lng=-89.04&r=5');
    expect(await mainText(page)).toContain('requires a Starter plan or above');
    // The key stays in this tab's sessionStorage: never in the URL, a cookie or localStorage.
    const where = await page.evaluate(() => ({ url: location.href, cookie: document.cookie, local: localStorage.length, session: Object.keys(sessionStorage) }));
    expect(where.url).not.toContain(w.keys.free);
    expect(where.cookie).toBe('');
    expect(where.local).toBe(0);
    expect(where.session).toEqual(['facility-score.api-key']);
  }, 30_000);
});

describe('the page with a Starter key', () => {
  it('finds a facility by name and opens its page: gauge, the four components against their maxima, enforcement flag', async () => {
    const f = sampleFacility();
    const page = await tab();
    await goto(page);
    await useKey(page, w.keys.starter);
    await goto(page, '#/search');
    const before = await renders(page);
    await page.type('input[name=q]', f.fac_name.split(' ').slice(0, 2).join(' ').toLowerCase());
    await page.click('form[role=search] button[type=submit]');
    await settled(page, 'search', before);
    const link = await page.waitForSelector(`a[href="#/facility/${f.registry_id}"]`, { timeout: 10_000 });
    await link!.click();
    await settled(page, 'facility');
    expect(await page.$eval('h2', (h) => (h as HTMLElement).innerText)).toBe(f.fac_name);
    const meters = await page.$$eval('meter', (ms) => ms.map((m) => [m.id, Number(m.getAttribute('max'))]));
    expect(meters).toEqual([
      ['meter-violation-frequency', 15],
      ['meter-penalty-severity', 30],
      ['meter-recency', 25],
      ['meter-repeat-offender', 15],
    ]);
    expect(await mainText(page)).toMatch(/Open enforcement action|No open enforcement/);
    // Platform+ only: the PDF button answers with the API's 403 sentence for Starter.
    await page.click('.report button');
    await page.waitForFunction(() => /Platform plan or above/.test(document.querySelector('.report')?.textContent ?? ''));
  }, 40_000);
});
