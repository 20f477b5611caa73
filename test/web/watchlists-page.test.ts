import { afterAll, afterEach, beforeAll, describe, expect, it } from 'bun:test';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { facility, inputsWith } from '../helpers';
import { historyIndexFile, type TestHistoryRow } from '../support/history-index';
import { removeTempDirs, tempDir } from '../support/temp-dir';
import { ARTIFACTS, mainText, renders, settled, startWebWorld, useKey, type WebWorld } from './support';

declare const document: any;
type HTMLElement = any;

// Two weekly releases of 240 fictitious facilities; the second changes 222 of them: 10 enforcement
// actions start, 100 scores drop (1 to 30 points), 12 facilities leave the data, 100 scores rise.
const IDS = Array.from({ length: 240 }, (_, i) => String(990000002000 + i));
const kindOf = (i: number) => (i < 10 ? 'started' : i < 110 ? 'dropped' : i < 122 ? 'removed' : i < 222 ? 'rose' : 'same');
const scoreOf = (i: number) => ({ started: 78, dropped: 80 - (1 + (i % 30)), removed: 0, rose: 85, same: 80 })[kindOf(i)];
const history: TestHistoryRow[] = [
  ...IDS.map((id): TestHistoryRow => ({ registry_id: id, seq: 1, change: 'added', score: 80 })),
  ...IDS.flatMap((id, i): TestHistoryRow[] =>
    kindOf(i) === 'same' ? [] : kindOf(i) === 'removed' ? [{ registry_id: id, seq: 2, change: 'removed' }] : [{ registry_id: id, seq: 2, change: 'changed', score: scoreOf(i), enforcement: kindOf(i) === 'started' }],
  ),
];
// Plants 0 and 1 differ in one input: plant 1 is inactive (FAC_ACTIVE_FLAG N), so its data is not enough to judge it.
const rows = IDS.flatMap((id, i) => (kindOf(i) === 'removed' ? [] : [facility({ registry_id: id, fac_name: `WATCHED PLANT ${i} (FICTITIOUS)`, overall_score: scoreOf(i), active_enforcement: kindOf(i) === 'started', score_inputs: inputsWith({ facility_active: i !== 1 }) })]));

let w: WebWorld;
beforeAll(async () => {
  const index = join(tempDir('web-releases'), 'releases.sqlite');
  historyIndexFile(index, rows, [{ seq: 1, as_of: '2026-10-01' }, { seq: 2, as_of: '2026-10-08' }], history);
  w = await startWebWorld({ index });
}, 90_000);
afterAll(async () => {
  if (w) expect(await w.close()).toEqual([]);
  removeTempDirs();
});
const pages: Page[] = [];
afterEach(async () => {
  for (const p of pages.splice(0)) await p.close();
  expect(w.watch.offsite).toEqual([]);
  expect(w.watch.errors).toEqual([]);
});

async function open(width = 1280): Promise<Page> {
  const page = await w.tab(width);
  pages.push(page);
  await page.goto(`${w.base}/#/lookup`);
  await settled(page, 'lookup');
  await useKey(page, w.keys.platform);
  const before = await renders(page);
  await page.goto(`${w.base}/#/watchlists`);
  await settled(page, 'watchlists', before);
  return page;
}

const api = async (path: string) => ((await (await fetch(`${w.base}${path}`, { headers: { 'x-api-key': w.keys.platform } })).json()) as { data: any }).data;
const shownChanges = (page: Page) => page.$$eval('ol.changes li', (lis) => lis.map((li) => ({ type: li.getAttribute('data-type'), text: (li as HTMLElement).innerText })));
const button = async (page: Page, label: string) => (await page.$$(`xpath/.//button[normalize-space()="${label}"]`))[0]!;

describe('the watchlists page', () => {
  it('creates a list, pages through all 222 changes most severe first, renames it, adds and removes IDs, and deletes it', async () => {
    const page = await open();
    // The empty state says what a watchlist is and where Registry IDs come from.
    expect(await page.$eval('.wl-empty', (d) => (d as HTMLElement).innerText)).toMatch(/^No watchlists yet\. A watchlist is a named set of facilities \(by Registry ID\) that this service checks at each new weekly release/);
    // An ID that is not 12 digits is refused in the page, before any call.
    await page.click('.new-watchlist summary');
    await page.type('form[aria-label="New watchlist"] input[name=name]', 'short');
    await page.type('form[aria-label="New watchlist"] input[name=registry_ids]', '123');
    await page.click('form[aria-label="New watchlist"] button[type=submit]');
    await page.waitForFunction(() => /Not a Registry ID \(12 digits\): 123\./.test(document.querySelector('form[aria-label="New watchlist"]')?.textContent ?? ''));
    await page.$eval('form[aria-label="New watchlist"] input[name=name]', (el) => ((el as HTMLElement).value = ''));
    await page.$eval('form[aria-label="New watchlist"] input[name=registry_ids]', (el) => ((el as HTMLElement).value = ''));
    await page.click('.new-watchlist summary');
    await page.click('.new-watchlist summary');
    await page.type('form[aria-label="New watchlist"] input[name=name]', "Lender's book");
    await page.$eval('form[aria-label="New watchlist"] input[name=registry_ids]', (el, v) => ((el as HTMLElement).value = v), IDS.join(' '));
    await page.click('form[aria-label="New watchlist"] button[type=submit]');
    await page.waitForFunction(() => /Changes 1–20 of 222/.test(document.querySelector('.watchlist')?.innerText ?? ''), { timeout: 15_000 });
    expect(await page.$eval('.wl-meta', (p) => p.textContent)).toBe('240 facilities · alerts on any change');
    await page.$eval('.watchlist', (el) => el.scrollIntoView());
    await page.screenshot({ path: join(ARTIFACTS, 'watchlist-changes.png') });
    const [made] = (await api('/api/v1/watchlists')).watchlists;
    expect(made).toMatchObject({ name: "Lender's book", registry_id_count: 240 });

    // Every change reached by Next, each once, in order of severity.
    const seen: { type: string; text: string }[] = [];
    for (let n = 1; ; n++) {
      expect(await page.$eval('.changes-range', (p) => p.textContent)).toBe(`Changes ${(n - 1) * 20 + 1}–${Math.min(n * 20, 222)} of 222`);
      seen.push(...((await shownChanges(page)) as { type: string; text: string }[]));
      const next = await button(page, 'Next');
      if (await next.evaluate((b) => (b as HTMLElement).disabled)) break;
      await next.click();
    }
    expect(seen).toHaveLength(222);
    const { changes } = await api(`/api/v1/watchlists/${made.id}/changes`);
    expect(new Set(seen.map((c) => c.text.match(/WATCHED PLANT (\d+)|9900000\d+/)![0])).size).toBe(222);
    expect(changes).toHaveLength(222);
    const types = seen.map((c) => c.type);
    expect(types.slice(0, 10)).toEqual(Array(10).fill('facility.enforcement_started'));
    expect(types.slice(110, 122)).toEqual(Array(12).fill('facility.removed'));
    const deltas = seen.map((c) => Number(c.text.match(/\(([+-]?\d+)\)$/)?.[1] ?? NaN));
    const drops = deltas.slice(10, 110);
    expect(drops.every((d) => d < 0)).toBe(true);
    expect(drops).toEqual([...drops].sort((a, b) => a - b)); // biggest drop first
    expect(deltas.slice(122).every((d) => d > 0)).toBe(true);

    // Another order: by facility name, back on page 1.
    await page.select('select[name=order]', 'name');
    expect(await page.$eval('.changes-range', (p) => p.textContent)).toBe('Changes 1–20 of 222');

    // Rename.
    await (await button(page, 'Rename')).click();
    const nameInput = await page.$('.wl-actions input[name=name]');
    await nameInput!.click({ count: 3 });
    await nameInput!.type('Midwest loans');
    await (await button(page, 'Save name')).click();
    await page.waitForFunction(() => document.querySelector('.watchlist h3')?.textContent === 'Midwest loans');
    expect((await api(`/api/v1/watchlists/${made.id}`)).name).toBe('Midwest loans');

    // Facilities a page at a time, each with its name, score and latest change; remove one, add one.
    await page.click('.wl-ids-box summary');
    await page.waitForFunction(() => document.querySelectorAll('.wl-ids li').length === 100);
    const rowText = (id: string) => page.$eval(`li[data-registry-id="${id}"]`, (li) => (li as HTMLElement).innerText.replace(/\s+/g, ' '));
    expect(await rowText(IDS[0]!)).toBe(`WATCHED PLANT 0 (FICTITIOUS) ${IDS[0]} 78 Fair changed 2026-10-08: score 80 → 78 Remove`);
    // the same record but inactive: the words and the grey badge of "not enough data to judge" in place of the band
    expect(await rowText(IDS[1]!)).toBe(`WATCHED PLANT 1 (FICTITIOUS) ${IDS[1]} 78 Not enough data changed 2026-10-08: score 80 → 78 Remove`);
    const badge = (id: string) => page.$eval(`li[data-registry-id="${id}"] .score-badge`, (b) => b.className);
    expect([await badge(IDS[0]!), await badge(IDS[1]!)]).toEqual(['score-badge band-fair', 'score-badge band-none']);
    await page.$eval('.wl-ids-box', (el) => el.scrollIntoView());
    await page.screenshot({ path: join(ARTIFACTS, 'watchlist-facilities.png') });
    await (await button(page, 'More facilities')).click();
    await page.waitForFunction(() => document.querySelectorAll('.wl-ids li').length === 200);
    expect(await rowText(IDS[110]!)).toBe(`Not in the current release ${IDS[110]} removed 2026-10-08 Remove`);
    await (await button(page, 'More facilities')).click();
    await page.waitForFunction(() => document.querySelectorAll('.wl-ids li').length === 240);
    expect(await page.$eval('.wl-ids-box', (d) => (d.querySelector('button.secondary[hidden]') ? 'no more' : 'more'))).toBe('no more');
    await page.click(`button[aria-label="Remove ${IDS[0]}"]`);
    await page.waitForFunction(() => document.querySelector('.wl-meta')?.textContent?.startsWith('239 facilities'));
    expect((await api(`/api/v1/watchlists/${made.id}`)).registry_ids).not.toContain(IDS[0]);
    await page.type('form[aria-label="Add IDs to Midwest loans"] input[name=add_ids]', '990000009999, 990000009998');
    await page.click('form[aria-label="Add IDs to Midwest loans"] button[type=submit]');
    await page.waitForFunction(() => document.querySelector('.wl-meta')?.textContent?.startsWith('241 facilities'));
    expect((await api(`/api/v1/watchlists/${made.id}`)).registry_ids).toContain('990000009999');

    // Delete, asked once more in the page.
    await (await button(page, 'Delete')).click();
    await (await button(page, 'Delete this list')).click();
    await page.waitForFunction(() => !document.querySelector('.watchlist'));
    expect(await mainText(page)).toContain('No watchlists yet.');
    expect((await api('/api/v1/watchlists')).total).toBe(0);
  }, 90_000);

  it('at 375 px nothing is wider than the screen, and axe-core finds no serious violation', async () => {
    await fetch(`${w.base}/api/v1/watchlists`, {
      method: 'POST',
      headers: { 'x-api-key': w.keys.platform, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Narrow', registry_ids: IDS.slice(0, 40), rule: { type: 'score_dropped', min_points: 5 } }),
    });
    const page = await open(375);
    await page.waitForFunction(() => /Changes 1–20 of/.test(document.querySelector('.watchlist')?.innerText ?? ''), { timeout: 15_000 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.evaluate(AXE_SOURCE);
    const violations = (await page.evaluate(async () => (await (globalThis as any).axe.run(document, { resultTypes: ['violations'] })).violations)) as { id: string; impact: string }[];
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, 'watchlists-375.png'), fullPage: true });
  }, 60_000);
});

const AXE_SOURCE = await Bun.file(join(import.meta.dir, '..', '..', 'node_modules', 'axe-core', 'axe.min.js')).text();
