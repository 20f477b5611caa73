import { afterAll, afterEach, beforeAll, describe, expect, it } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { Database } from 'bun:sqlite';
import { ROOT } from '../support/process';
import { removeTempDirs, tempDir } from '../support/temp-dir';
import { completenessNotes } from '../../src/scoring/completeness';
import { ARTIFACTS, axeViolations, mainText, renders, sampleFacility, settled, startWebWorld, useKey, type WebWorld } from './support';

// Callbacks passed to page.evaluate/$eval/waitForFunction run inside Chromium; this project is typed
// without the DOM library, so the browser globals they use are declared here, for this file only.
declare const document: any;
declare const location: any;
declare const localStorage: any;
declare const sessionStorage: any;
type HTMLElement = any;
type SVGPathElement = any;

// One serve and one Chromium for the file (each start costs seconds on a loaded machine).
let w: WebWorld;
beforeAll(async () => {
  w = await startWebWorld();
}, 90_000);
afterAll(async () => {
  // Chromium is always closed: no process of its profile may be left (close kills and reports any).
  if (w) expect(await w.close()).toEqual([]);
  removeTempDirs();
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
    // The preview cannot tell whether the data is enough to judge, so it gives the score alone and says where the band is.
    expect(await page.$eval('.score-badge', (b) => b.textContent!.replace(/\s+/g, ' ').trim())).toBe(`${f.overall_score} of 100`);
    expect(text).toContain('The band, and whether the data is enough to judge, come with a lookup by key.');
  }, 30_000);

  it('the address placeholder is an address of the served data, and looking it up finds that facility', async () => {
    const page = await tab();
    await goto(page);
    const placeholder = await page.waitForFunction(() => document.querySelector('input[name=address]')?.placeholder || null).then((h) => h.jsonValue() as Promise<string>);
    const { examples } = ((await (await fetch(`${w.base}/api/v1/demo/examples`)).json()) as { data: { examples: { address: string; fac_name: string }[] } }).data;
    expect(placeholder).toBe(examples[0]!.address);
    expect(await page.$$eval('.examples a', (as) => as.map((a) => a.textContent))).toEqual(examples.map((e) => e.address));
    const before = await renders(page);
    await page.type('input[name=address]', placeholder);
    await page.keyboard.press('Enter');
    await settled(page, 'lookup', before);
    expect(await page.$eval('#demo-name', (n) => (n as HTMLElement).innerText)).toBe(examples[0]!.fac_name);
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
  it('a facility page shows the score and one box saying what a higher plan adds; no map link, PDF button or history that would answer 403', async () => {
    const f = sampleFacility();
    const page = await tab();
    const forbidden: string[] = [];
    page.on('response', (res) => void (res.status() === 403 && forbidden.push(res.url())));
    await goto(page);
    await useKey(page, w.keys.free);
    await goto(page, `#/facility/${f.registry_id}`);
    const text = await mainText(page);
    expect(text).toContain(f.fac_name);
    expect(await page.$$eval('.gauge', (g) => g.length)).toBe(1);
    expect(await page.$eval('.redaction', (n) => (n as HTMLElement).innerText)).toBe('Score components are available on the Starter plan or above');
    expect(await page.$$('meter')).toHaveLength(0);
    // One upsell: the API redacts programs, peers and explanation too, but the page says it once, not in a box each.
    const rec = ((await (await fetch(`${w.base}/api/v1/facility/${f.registry_id}?include=evidence`, { headers: { 'x-api-key': w.keys.free } })).json()) as { data: any }).data;
    for (const part of ['programs', 'peers', 'explanation']) expect(rec[part].redacted).toBe(true);
    expect(await page.$$('.upsell')).toHaveLength(1);
    expect(await page.$$('.redaction')).toHaveLength(1);
    expect(text.split(rec.programs.message).length - 1).toBe(0);
    expect(await page.$eval('.upsell', (n) => (n as HTMLElement).innerText)).toMatch(/Starter plan adds .*score history and the area map; Platform adds the PDF dossier/);
    // Controls the plan cannot use are not offered: no map link, no PDF button, no history section.
    expect(await page.$$('#main a[href^="#/area"]')).toHaveLength(0);
    expect(await page.$$('.report button')).toHaveLength(0);
    expect(await page.$$('#history-h')).toHaveLength(0);
    // Evidence is redacted (the one upsell says so), but the public ECHO report link and data completeness are on every plan.
    expect(rec.evidence.redacted).toBe(true);
    expect(rec.dfr_url).toBeNull(); // the sample's invented ID: no ECHO page to open
    expect(await page.$eval('.evidence p', (p) => p.textContent)).toStartWith('No ECHO report: this Registry ID is not one EPA issues');
    expect(await page.$$('.evidence-table')).toHaveLength(0);
    expect(await page.$$('.evidence .completeness')).toHaveLength(1);
    // The navigation offers only what the key covers.
    const nav = await page.$$eval('nav a', (as) => as.filter((a) => (a as HTMLElement).offsetParent !== null).map((a) => a.textContent));
    expect(nav).toEqual(['Address lookup']);
    // Views reached by their address say which plan they need, in one line, without asking the API.
    await goto(page, '#/area?lat=41.81&lng=-89.04&r=5');
    expect(await mainText(page)).toContain('requires a Starter plan or above');
    await goto(page, '#/watchlists');
    expect(await mainText(page)).toContain('requires a Starter plan or above');
    expect(forbidden).toEqual([]);
    // The key stays in this tab's sessionStorage: never in the URL, a cookie or localStorage.
    const where = await page.evaluate(() => ({ url: location.href, cookie: document.cookie, local: localStorage.length, tabKeys: Object.keys(sessionStorage) }));
    expect(where.url).not.toContain(w.keys.free);
    expect(where.cookie).toBe('');
    expect(where.local).toBe(0);
    expect(where.tabKeys).toEqual(['facility-score.api-key']);
  }, 30_000);

  it('the lookup view opens a facility by its 12-digit Registry ID (the Free plan\'s use); its placeholder is a real ID of the data', async () => {
    const page = await tab();
    await goto(page);
    const { examples } = ((await (await fetch(`${w.base}/api/v1/demo/examples`)).json()) as { data: { examples: { registry_id: string; fac_name: string }[] } }).data;
    await page.waitForFunction((id) => document.querySelector('input[name=registry_id]')?.placeholder === id, {}, examples[0]!.registry_id);
    const before = await renders(page);
    await useKey(page, w.keys.free);
    await settled(page, 'lookup', before);
    await page.type('input[name=registry_id]', examples[0]!.registry_id);
    await page.click('form[aria-label="Look up by EPA Registry ID"] button[type=submit]');
    await settled(page, 'facility');
    expect(page.url()).toEndWith(`#/facility/${examples[0]!.registry_id}`);
    expect(await page.$eval('h2', (h) => (h as HTMLElement).innerText)).toBe(examples[0]!.fac_name);
    // Not an ID: the form says so and stays.
    await goto(page);
    await page.type('input[name=registry_id]', '11-0003');
    await page.click('form[aria-label="Look up by EPA Registry ID"] button[type=submit]');
    await page.waitForFunction(() => /1 to 15 digits/.test(document.querySelector('form[aria-label="Look up by EPA Registry ID"]')?.textContent ?? ''));
    expect(page.url()).toEndWith('#/lookup');
  }, 30_000);
});

describe('an address the page cannot decode', () => {
  it.each(['#/facility/%E0%A4%A', '#/search/%'])('%s shows a sentence saying so and a way back, and throws nothing', async (hash) => {
    const page = await tab();
    await goto(page);
    const before = await renders(page);
    await page.goto(`${w.base}/${hash}`);
    await settled(page, 'unreadable', before);
    expect(await mainText(page)).toContain('This address cannot be read: the part after # has a broken %-escape.');
    expect(await page.$eval('#main a[href="#/lookup"]', (a) => a.textContent)).toBe('Go to the address lookup');
    expect(await page.title()).toStartWith('Page not found');
  }, 30_000);
});

describe('the page with a Starter key', () => {
  it('finds a facility by name and opens its page: gauge, the four components against their maxima, enforcement flag, explanation, peers, programs, score over time', async () => {
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
    // the flag in the words of what it means: the data cannot tell an open action from a closed one
    expect(await mainText(page)).toMatch(/Enforcement action in the last 12 months|Significant violation being addressed|No enforcement action in the last 12 months/);
    expect(await mainText(page)).not.toMatch(/\bopen enforcement\b|enforcement action is open/i);
    // What the record says (read straight from the API) is what the page shows.
    const api = await fetch(`${w.base}/api/v1/facility/${f.registry_id}`, { headers: { 'x-api-key': w.keys.starter } });
    const rec = ((await api.json()) as { data: any }).data;
    expect(await page.$$eval('ul.explanation li', (li) => li.map((l) => l.textContent))).toEqual(
      rec.explanation.map((e: { reason: string; points_lost: number }) => (e.points_lost > 0 ? `${e.reason} (−${e.points_lost} points)` : e.reason)),
    );
    // the shares of the group scoring better and tied, never a percentile that ties make read wrong
    expect(rec.peers.percentile).not.toBeNull();
    const pct = (x: number) => `${Math.round(100 * x)}%`;
    const standing = rec.peers.share_scoring_better === 0 ? `Tied with ${pct(rec.peers.share_tied)} of peers at the top score` : `${pct(rec.peers.share_scoring_better)} of peers score better; tied with ${pct(rec.peers.share_tied)}`;
    expect(await page.$eval('p.peers', (p) => p.textContent)).toContain(`${standing}, among ${rec.peers.peer_count.toLocaleString('en-US')} facilities in NAICS ${rec.peers.naics}`);
    expect(await page.$eval('p.peers', (p) => p.textContent)).not.toContain('percentile');
    const programRows = await page.$$eval('table.programs tbody tr', (rows) => rows.map((r) => r.textContent));
    expect(programRows).toHaveLength(4);
    for (const [i, key] of ['caa', 'cwa', 'rcra', 'sdwa'].entries()) {
      if (rec.programs[key] === null) expect(programRows[i]).toContain('No record under this program');
      else expect(programRows[i]).toContain(rec.programs[key].status ?? 'not reported');
    }
    // Score over time from /history: one point per entry.
    const history = ((await (await fetch(`${w.base}/api/v1/facility/${f.registry_id}/history`, { headers: { 'x-api-key': w.keys.starter } })).json()) as { data: { entries: unknown[] } }).data;
    expect(await page.$$eval('svg.history-chart circle', (c) => c.length)).toBe(history.entries.length);
    // Platform+ only: for Starter the PDF button is shown disabled, with the one line saying which plan has it.
    expect(await page.$eval('.report button', (b) => (b as HTMLElement & { disabled: boolean }).disabled)).toBe(true);
    expect(await page.$eval('.report', (r) => r.textContent)).toContain('PDF dossier: Platform plan or above.');
    expect(await page.$$('.upsell')).toHaveLength(0);
  }, 40_000);

  it('a facility page shows the evidence beside the score: no ECHO links for invented IDs, quarter strips with a legend, one phrase for missing TRI, the fictitious notice once', async () => {
    const f = sampleFacility(`evidence LIKE '%fec_case_ids%' AND evidence LIKE '%caa_history%'`);
    const page = await tab();
    await goto(page);
    await useKey(page, w.keys.starter);
    await goto(page, `#/facility/${f.registry_id}`);
    const rec = ((await (await fetch(`${w.base}/api/v1/facility/${f.registry_id}?include=evidence`, { headers: { 'x-api-key': w.keys.starter } })).json()) as { data: any }).data;
    expect(rec.evidence.federal_cases.length).toBeGreaterThan(0);
    // invented IDs: ECHO has no page for them, so no link leads there
    expect(await page.$$('.evidence a')).toHaveLength(0);
    const text = await page.$eval('.evidence', (e) => (e as HTMLElement).innerText);
    expect(text).toContain('No ECHO report: this Registry ID is not one EPA issues');
    for (const c of rec.evidence.federal_cases) expect(text).toContain(c.case_id);
    expect(text).toContain(rec.evidence.latest_action_by ? `${rec.evidence.latest_action_by}, ${rec.evidence.latest_action_date}` : 'no action date on record');
    expect(text).not.toContain('not reported; not reported');
    // each program's quarters are a strip of squares, one per quarter, never the raw code string
    const strips = await page.$$eval('.quarter-strip', (ss) => ss.map((s) => [s.querySelectorAll('.q').length, s.getAttribute('aria-label')]));
    const histories = Object.values(rec.evidence.quarter_history).filter(Boolean) as string[];
    expect(strips.map(([n]) => n)).toEqual(histories.map((hist) => hist.length));
    expect(strips[0]![1]).toMatch(/^Clean Air Act, last \d+ quarters, oldest first: \d+ /);
    for (const hist of histories) expect(text).not.toContain(hist);
    expect(await page.$eval('.quarter-legend', (p) => p.textContent)).toBe('Quarters, oldest on the left:  No violation  Violation  Significant violation  Undetermined ');
    // the notes read as the PDF words them
    const expected = completenessNotes(rec.data_completeness);
    if (expected.length === 0) expect(await page.$eval('.evidence p.completeness', (p) => p.textContent)).toContain('nothing missing');
    else expect(await page.$$eval('.evidence ul.completeness li', (li) => li.map((l) => l.textContent))).toEqual(expected);
    // the header says "fictitious" once
    const header = await page.$eval('#dataset', (d) => (d as HTMLElement).innerText);
    expect(header.match(/fictitious/gi)).toHaveLength(1);
    expect(await axeViolations(page)).toEqual([]);
    await page.$eval('.evidence', (el) => el.scrollIntoView());
    await page.screenshot({ path: join(ARTIFACTS, 'facility-quarters.png') });
  }, 30_000);

  it('a facility with no TRI figure at all says "not reported" once', async () => {
    const f = sampleFacility(`evidence NOT LIKE '%tri_on_site%' AND evidence NOT LIKE '%tri_releases%' AND evidence LIKE '%caa_history%'`);
    const page = await tab();
    await goto(page);
    await useKey(page, w.keys.starter);
    await goto(page, `#/facility/${f.registry_id}`);
    const row = await page.$$eval('.evidence-table tr', (trs) => trs.map((tr) => (tr as HTMLElement).innerText).find((t) => t.startsWith('TRI releases')));
    expect(row).toBe('TRI releases (latest year)\tnot reported');
  }, 30_000);
});

/** Axe-core run inside the page (DevTools evaluation, which the page's CSP does not govern). */

describe('the area map', () => {
  it('draws the map zoomed to the circle with one dot per facility the area endpoint returns; the table sorts; CSV downloads', async () => {
    const f = sampleFacility();
    // What the API itself answers for the same query (the page asks for its GeoJSON form).
    const api = await fetch(`${w.base}/api/v1/area?lat=${f.lat}&lng=${f.lng}&radius_miles=10&limit=500`, { headers: { 'x-api-key': w.keys.starter } });
    const expected = ((await api.json()) as { data: { facilities: { registry_id: string; overall_score: number }[] } }).data.facilities;
    expect(expected.length).toBeGreaterThan(1);
    const page = await tab();
    const dir = await downloadsTo(page);
    await goto(page);
    await useKey(page, w.keys.starter);
    await goto(page, `#/area?lat=${f.lat}&lng=${f.lng}&r=10`);
    const dots = await page.$$eval('svg.us-map circle.dot', (cs) => cs.map((c) => c.getAttribute('data-registry-id')!));
    expect(dots.sort()).toEqual(expected.map((x) => x.registry_id).sort());
    expect(await page.$$eval('table.sortable tbody tr', (rows) => rows.length)).toBe(expected.length);
    expect(await page.$$('path.land')).toHaveLength(1);
    // Sorting by score puts the lowest first; again, the highest.
    const scoreHeader = await page.$('table.sortable th:nth-child(2) button');
    await scoreHeader!.click();
    const firstScore = () => page.$eval('table.sortable tbody tr td:nth-child(2)', (td) => Number(td.textContent!.match(/\d+/)![0]));
    expect(await firstScore()).toBe(Math.min(...expected.map((x) => x.overall_score)));
    expect(await page.$eval('table.sortable th:nth-child(2)', (th) => th.getAttribute('aria-sort'))).toBe('ascending');
    await scoreHeader!.click();
    expect(await firstScore()).toBe(Math.max(...expected.map((x) => x.overall_score)));
    const [csvButton] = await page.$$('xpath/.//button[normalize-space()="Download CSV"]');
    await csvButton!.click();
    const csv = readFileSync(await downloaded(dir, /\.csv$/), 'utf8');
    expect(csv.trim().split('\n').length).toBeGreaterThan(expected.length); // header + one row per facility (names may hold newlines)
    // A city: many dots of several bands (the README's picture, docs/web-page.png).
    await goto(page, '#/area?lat=29.76&lng=-95.37&r=5');
    const bands = await page.$$eval('svg.us-map circle.dot', (cs) => cs.map((c) => c.getAttribute('class')));
    expect(bands.length).toBeGreaterThan(20);
    expect(new Set(bands).size).toBeGreaterThan(1);
    await page.$eval('.area-summary', (el) => el.scrollIntoView());
    await page.screenshot({ path: join(ARTIFACTS, 'area-city-1280.png') });
  }, 50_000);

  it('centres on the facility filed at a typed street address', async () => {
    const f = sampleFacility();
    const page = await tab();
    await goto(page);
    await useKey(page, w.keys.starter);
    await goto(page, '#/area');
    const before = await renders(page);
    await page.type('input[name=place]', `${f.fac_street}, ${f.fac_city}, ${f.fac_state} ${f.fac_zip}`);
    await page.click('form[aria-label="Area search"] button[type=submit]');
    await settled(page, 'area', before);
    expect(await page.$eval('.area-summary', (p) => p.textContent)).toContain('a facility filed at that address');
    expect(await page.$$(`circle.dot[data-registry-id="${f.registry_id}"]`)).toHaveLength(1);
  }, 30_000);

  it('centres on "Houston, TX" (the middle of its ZIP codes, not a facility), with a centre marker and a scale bar true to the circle', async () => {
    const page = await tab();
    await goto(page);
    await useKey(page, w.keys.starter);
    await goto(page, '#/area');
    const before = await renders(page);
    await page.type('input[name=place]', 'Houston, TX');
    await page.click('form[aria-label="Area search"] button[type=submit]');
    await settled(page, 'area', before);
    expect(await page.$eval('.area-summary', (p) => p.textContent)).toMatch(/within 5 miles of Houston, TX \(the centre of its ZIP codes\): 29\.\d+, -95\.\d+\./);
    expect(await page.$$('svg.us-map .center-mark circle')).toHaveLength(1);
    // The bar (5 miles at r=5) spans half the circle's width: both are drawn in the same frame units.
    const sizes = await page.evaluate(() => ({
      bar: (document.querySelector('.scale-bar path') as SVGPathElement).getBBox().width,
      circle: (document.querySelector('.radius-circle') as SVGPathElement).getBBox().width,
      label: document.querySelector('.scale-bar text')!.textContent,
    }));
    expect(sizes.label).toBe('5 miles');
    expect(sizes.bar / sizes.circle).toBeGreaterThan(0.45);
    expect(sizes.bar / sizes.circle).toBeLessThan(0.55);
    expect(await axeViolations(page)).toEqual([]);
    await page.$eval('.area-summary', (el) => el.scrollIntoView());
    await page.screenshot({ path: join(ARTIFACTS, 'area-houston-tx.png') });
  }, 30_000);

  it('search says how many facilities match in all, shows each one\'s Registry ID and street, and downloads the search as CSV', async () => {
    const api = await fetch(`${w.base}/api/v1/search?q=houston&limit=100`, { headers: { 'x-api-key': w.keys.starter } });
    const all = ((await api.json()) as { data: { facilities: { registry_id: string; fac_street: string }[]; total: number } }).data;
    expect(all.total).toBeGreaterThan(20);
    const page = await tab();
    const dir = await downloadsTo(page);
    await goto(page);
    await useKey(page, w.keys.starter);
    await goto(page, '#/search?q=houston');
    await page.waitForSelector('table.data tbody tr');
    const status = await page.$eval('.results p[role=status]', (p) => p.textContent);
    expect(status).toBe(`${all.total.toLocaleString('en-US')} facilities match; 20 shown, more available.`);
    const first = await page.$eval('table.data tbody tr', (tr) => [...tr.querySelectorAll('td')].map((td: HTMLElement) => td.textContent));
    expect(first[1]).toBe(all.facilities[0]!.registry_id);
    expect(first[2]).toStartWith(`${all.facilities[0]!.fac_street}, HOUSTON, TX `);
    const [csvButton] = await page.$$('xpath/.//button[normalize-space()="Download CSV"]');
    await csvButton!.click();
    const csv = readFileSync(await downloaded(dir, /^search-houston.*\.csv$/), 'utf8');
    expect(csv.split('\r\n')[0]).toContain('registry_id,fac_name');
    expect(csv).toContain(all.facilities[0]!.registry_id);
    expect(await axeViolations(page)).toEqual([]);
  }, 30_000);

  it('a facility without enough data to judge reads "Not enough data" in grey in place of its band, wherever the API says so: area table, map dots and legend, search list', async () => {
    type Item = { registry_id: string; overall_score: number; data_sufficient: boolean };
    const ask = async (path: string) => ((await (await fetch(`${w.base}${path}`, { headers: { 'x-api-key': w.keys.starter } })).json()) as { data: { facilities: Item[] } }).data.facilities;
    /** What a badge must say: the band's word, or "Not enough data" and grey. */
    const expectBadge = (item: Item, shown: { text: string; cls: string }) => {
      if (item.data_sufficient) expect([shown.text, shown.cls]).toEqual([expect.not.stringContaining('Not enough data'), expect.not.stringContaining('band-none')]);
      else expect([shown.text, shown.cls]).toEqual([`${item.overall_score} Not enough data`, 'score-badge band-none']);
    };
    const area = await ask('/api/v1/area?lat=29.76&lng=-95.37&radius_miles=5&limit=500');
    // the sample has both kinds here: inactive facilities (FAC_ACTIVE_FLAG N) and judged ones
    expect(new Set(area.map((i) => i.data_sufficient))).toEqual(new Set([true, false]));
    const byId = new Map(area.map((i) => [i.registry_id, i]));
    const page = await tab();
    await goto(page);
    await useKey(page, w.keys.starter);
    await goto(page, '#/area?lat=29.76&lng=-95.37&r=5');
    const rows = await page.$$eval('table.sortable tbody tr', (trs) => trs.map((tr) => ({ id: tr.querySelector('a').getAttribute('href').match(/\d{12}/)[0], text: tr.querySelector('.score-badge').textContent, cls: tr.querySelector('.score-badge').className })));
    expect(rows.map((r) => r.id).sort()).toEqual([...byId.keys()].sort());
    for (const r of rows) expectBadge(byId.get(r.id)!, r);
    const dots = await page.$$eval('svg.us-map circle.dot', (cs) => cs.map((c) => ({ id: c.getAttribute('data-registry-id'), cls: c.getAttribute('class'), title: c.querySelector('title').textContent })));
    for (const d of dots) {
      const item = byId.get(d.id)!;
      if (item.data_sufficient) expect(d.cls).not.toBe('dot band-none');
      else expect(d).toEqual({ id: d.id, cls: 'dot band-none', title: expect.stringMatching(new RegExp(`: score ${item.overall_score} \\(Not enough data\\)$`)) });
    }
    expect(await page.$$eval('.map-figure .legend li', (lis) => lis.map((li) => (li as HTMLElement).innerText).at(-1))).toBe('Not enough data');
    expect(await axeViolations(page)).toEqual([]);

    const found = await ask('/api/v1/search?q=houston');
    expect(new Set(found.map((i) => i.data_sufficient))).toEqual(new Set([true, false]));
    await goto(page, '#/search?q=houston');
    await page.waitForSelector('table.data tbody tr');
    const listed = await page.$$eval('table.data tbody tr', (trs) => trs.map((tr) => ({ id: tr.querySelectorAll('td')[1].textContent, text: tr.querySelector('.score-badge').textContent, cls: tr.querySelector('.score-badge').className })));
    expect(listed.map((r) => r.id)).toEqual(found.map((i) => i.registry_id));
    for (const [k, r] of listed.entries()) expectBadge(found[k]!, r);
    expect(await axeViolations(page)).toEqual([]);
  }, 40_000);

  it("a facility page's gauge reads \"Not enough data\" in grey when the data cannot judge the facility, and its band's word and colour when it can", async () => {
    const inactive = sampleFacility("completeness IN (SELECT id FROM completeness_kind WHERE completeness LIKE '%\"sufficient\":false%')");
    const judged = sampleFacility("completeness IN (SELECT id FROM completeness_kind WHERE completeness LIKE '%\"sufficient\":true%')");
    const page = await tab();
    await goto(page);
    await useKey(page, w.keys.starter);
    const gaugeOf = async (id: string) => {
      await goto(page, `#/facility/${id}`);
      return page.$eval('svg.gauge', (g) => ({ value: g.querySelector('.gauge-value')?.getAttribute('class'), label: g.querySelector('.gauge-label')?.textContent, aria: g.getAttribute('aria-label') }));
    };
    expect(await gaugeOf(inactive.registry_id)).toEqual({ value: 'gauge-value band-none', label: 'Not enough data', aria: `Score ${inactive.overall_score} out of 100, Not enough data` });
    const shown = await gaugeOf(judged.registry_id);
    expect(shown.value).not.toBe('gauge-value band-none');
    expect(shown.label).toMatch(/^(Good|Fair|Poor|Very poor)$/);
  }, 30_000);

  it('draws the geodesic circle across the antimeridian (Aleutians) as one closed shape in the Alaska inset', async () => {
    const page = await tab();
    await goto(page);
    await useKey(page, w.keys.starter);
    await goto(page, '#/area?lat=51.9&lng=179.95&r=25');
    const circle = await page.$eval('.radius-circle', (p) => {
      const box = (p as SVGPathElement).getBBox();
      return { d: p.getAttribute('d')!, w: box.width, h: box.height };
    });
    expect(circle.d.match(/M/g)).toHaveLength(1); // one ring: not cut at 180°
    expect(circle.w / circle.h).toBeGreaterThan(0.85); // round, not a band across the map
    expect(circle.w / circle.h).toBeLessThan(1.15);
    // Zoomed to the circle: the frame is a little larger than it.
    const frame = await page.$eval('svg.us-map', (s) => s.getAttribute('viewBox')!.split(' ').map(Number));
    expect(frame[3]! / circle.h).toBeGreaterThan(1.1);
    expect(frame[3]! / circle.h).toBeLessThan(1.6);
  }, 30_000);
});

/** Lets the tab save downloads into a fresh temp dir; returns it. */
async function downloadsTo(page: Page): Promise<string> {
  const dir = tempDir('web-dl');
  const cdp = await page.createCDPSession();
  await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: dir });
  return dir;
}

async function downloaded(dir: string, name: RegExp): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const hit = readdirSync(dir).find((f) => name.test(f));
    if (hit) return join(dir, hit);
    await Bun.sleep(100);
  }
  throw new Error(`no download matching ${name} in ${dir}: ${readdirSync(dir).join(', ')}`);
}

describe('watchlists', () => {
  it("a Starter key sees the account's watchlists with their rule and the newest release's changes", async () => {
    const f = sampleFacility();
    const made = await fetch(`${w.base}/api/v1/watchlists`, {
      method: 'POST',
      headers: { 'x-api-key': w.keys.starter, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Plating suppliers', registry_ids: [f.registry_id], rule: { type: 'score_dropped', min_points: 5 } }),
    });
    expect(made.status).toBe(201);
    const page = await tab();
    await goto(page);
    await useKey(page, w.keys.starter);
    await goto(page, '#/watchlists');
    const text = await mainText(page);
    expect(text).toContain('Plating suppliers');
    expect(text).toContain('1 facility · alerts on score dropped by 5 points or more');
    expect(text).toMatch(/No changes for this list in the release of \d{4}-\d{2}-\d{2}\./);
  }, 30_000);

  it("on first start, a list made on the page of sample facilities that changed shows at once each one's last change and the newest release's changes; axe finds nothing serious", async () => {
    const dropped = changedFacility('n.overall_score < p.overall_score AND n.active_enforcement = p.active_enforcement');
    const started = changedFacility('n.active_enforcement = 1 AND p.active_enforcement = 0');
    const page = await tab();
    await goto(page);
    await useKey(page, w.keys.platform);
    await goto(page, '#/watchlists');
    expect(await mainText(page)).toContain('No watchlists yet.');
    await page.click('.new-watchlist summary');
    await page.type('form[aria-label="New watchlist"] input[name=name]', 'First look');
    await page.type('form[aria-label="New watchlist"] input[name=registry_ids]', `${dropped.registry_id} ${started.registry_id}`);
    await page.click('form[aria-label="New watchlist"] button[type=submit]');
    await page.waitForFunction(() => /Changes 1–2 of 2/.test(document.querySelector('.watchlist')?.innerText ?? ''), { timeout: 15_000 });
    const changes = await page.$$eval('ol.changes li', (lis) => lis.map((li) => [li.getAttribute('data-type'), (li as HTMLElement).innerText]));
    expect(changes).toEqual([
      ['facility.enforcement_started', `${started.as_of} ${started.fac_name} enforcement action started; score ${started.after}`],
      ['facility.score_changed', `${dropped.as_of} ${dropped.fac_name} score ${dropped.before} → ${dropped.after} (${dropped.after - dropped.before})`],
    ]);
    await page.click('.wl-ids-box summary');
    await page.waitForFunction(() => document.querySelectorAll('.wl-ids li').length === 2);
    const lastChange = (id: string) => page.$eval(`li[data-registry-id="${id}"] .wl-change`, (s) => s.textContent);
    expect(await lastChange(dropped.registry_id)).toBe(`changed ${dropped.as_of}: score ${dropped.before} → ${dropped.after}`);
    expect(await lastChange(started.registry_id)).toBe(`changed ${started.as_of}${started.before === started.after ? '' : `: score ${started.before} → ${started.after}`}`);
    expect(await axeViolations(page)).toEqual([]);
    await page.$eval('.watchlist', (el) => el.scrollIntoView());
    await page.screenshot({ path: join(ARTIFACTS, 'watchlist-first-start.png') });
  }, 40_000);
});

/** The first facility (by ID) of the sample whose newest release changed it as `where` says (n: that release's entry, p: the one before). */
function changedFacility(where: string): { registry_id: string; fac_name: string; as_of: string; before: number; after: number } {
  const db = new Database(join(ROOT, 'data', 'sample.sqlite'), { readonly: true });
  try {
    return db.query(`SELECT f.registry_id, f.fac_name, r.as_of, p.overall_score AS before, n.overall_score AS after
      FROM history n JOIN history p ON p.registry_id = n.registry_id AND p.seq = n.seq - 1 JOIN release r ON r.seq = n.seq JOIN facility f ON f.registry_id = n.registry_id
      WHERE n.seq = (SELECT max(seq) FROM release) AND n.change = 'changed' AND ${where} ORDER BY n.registry_id LIMIT 1`).get() as never;
  } finally {
    db.close();
  }
}

describe('with a Platform key', () => {
  it('the facility page downloads the PDF dossier', async () => {
    const f = sampleFacility();
    const page = await tab();
    const dir = await downloadsTo(page);
    await goto(page);
    await useKey(page, w.keys.platform);
    await goto(page, `#/facility/${f.registry_id}`);
    await page.click('.report button');
    const file = await downloaded(dir, new RegExp(`^service-report-${f.registry_id}\\.pdf$`));
    expect(readFileSync(file).subarray(0, 5).toString()).toBe('%PDF-');
    await page.waitForFunction(() => /Saved service-report-/.test(document.querySelector('.report')?.textContent ?? ''));
  }, 30_000);
});

describe('the site report view', () => {
  const HOUSTON = { lat: 29.76, lng: -95.37 };

  it('says the coordinates once, shows no markdown, and lines up the ZIP and name inputs', async () => {
    const page = await tab();
    await goto(page);
    await useKey(page, w.keys.platform);
    await goto(page, `#/site-report?lat=${HOUSTON.lat}&lng=${HOUSTON.lng}`);
    const text = await mainText(page);
    expect(text.match(/29\.76, -95\.37/g)).toHaveLength(1);
    expect(text).not.toContain('Located by the coordinates given');
    expect(text).not.toContain('`');
    const tops = await page.$$eval('input[name=zip], input[name=name]', (ins) => ins.map((i) => Math.round(i.getBoundingClientRect().top)));
    expect(tops[0]).toBe(tops[1]);
    expect(await axeViolations(page)).toEqual([]);
  }, 30_000);

  it('the landing page names the site report among what a Platform key adds', async () => {
    const page = await tab();
    await goto(page);
    expect(await mainText(page)).toContain('Platform and above: everything in Starter plus the PDF dossier of a facility and the site report of a property');
  }, 30_000);

  it('with a Platform key: the summary, one dot and one table row per finding of the API\'s answer, the sources not searched, and the PDF downloads', async () => {
    const api = await fetch(`${w.base}/api/v1/site-report`, { method: 'POST', headers: { 'x-api-key': w.keys.platform, 'content-type': 'application/json' }, body: JSON.stringify({ ...HOUSTON, zip: '77002' }) });
    const expected = ((await api.json()) as { data: any }).data;
    expect(expected.findings.length).toBeGreaterThan(3);
    const page = await tab();
    const dir = await downloadsTo(page);
    await goto(page);
    await useKey(page, w.keys.platform);
    await goto(page, `#/site-report?lat=${HOUSTON.lat}&lng=${HOUSTON.lng}&zip=77002`);
    const dots = await page.$$eval('svg.radius-map circle.dot', (cs) => cs.map((c) => c.getAttribute('data-registry-id')!));
    expect(dots.sort()).toEqual(expected.findings.map((f: { registry_id: string }) => f.registry_id).sort());
    expect(await page.$$eval('svg.radius-map circle.radius-ring', (cs) => cs.length)).toBe(4);
    expect(await page.$$eval('table.sortable tbody tr', (rows) => rows.length)).toBe(expected.findings.length);
    // the nearest dots carry the table's numbers, each number's box clear of every other's
    const numbers = await page.$$eval('svg.radius-map text.dot-number', (ts) => ts.map((t) => ({ n: Number(t.textContent), id: t.getAttribute('data-registry-id'), box: (t.previousElementSibling as unknown as { getBBox(): { x: number; y: number; width: number; height: number } }).getBBox() })));
    expect(numbers.length).toBeGreaterThan(Math.min(40, expected.findings.length) - 3);
    for (const { n, id } of numbers) expect(id).toBe(expected.findings[n - 1].registry_id);
    for (const [i, a] of numbers.entries()) for (const b of numbers.slice(i + 1)) expect(a.box.x < b.box.x + b.box.width && b.box.x < a.box.x + a.box.width && a.box.y < b.box.y + b.box.height && b.box.y < a.box.y + a.box.height).toBe(false);
    const summary = await page.$$eval('section[aria-labelledby="sr-summary-h"] tbody tr', (rows) => rows.map((r) => (r as HTMLElement).innerText));
    expect(summary).toHaveLength(expected.summary.length); // one row per category, on_site included
    expect(summary.some((r) => r.startsWith('On the property'))).toBe(true);
    // the sample is an exporter file, so TRI_FLAG is stored and tri searched: the row says what the API says
    expect(expected.summary.find((r: { category: string }) => r.category === 'tri').coverage).toBe('searched');
    expect(summary.find((r) => r.startsWith('Toxics Release'))).toMatch(/\tSearched\t/);
    const text = await mainText(page);
    expect(text).toContain(`${expected.findings.length} facilities listed around 29.76, -95.37`);
    expect(text).toContain(`Not searched: ${expected.sources.not_searched.length} record sources`);
    expect(text).toContain('not a Phase I Environmental Site Assessment');
    const [pdfButton] = await page.$$('xpath/.//button[normalize-space()="Download PDF report"]');
    await pdfButton!.click();
    const file = await downloaded(dir, /^site-report-29\.76_-95\.37\.pdf$/);
    expect(readFileSync(file).subarray(0, 5).toString()).toBe('%PDF-');
    await page.$eval('svg.radius-map', (el) => el.scrollIntoView());
    await page.screenshot({ path: join(ARTIFACTS, 'site-report-1280.png') });
  }, 40_000);

  it('a finding without enough data to judge reads "Not enough data" in grey in the findings table and on its dot, as the API says; the legend names the grey', async () => {
    const api = await fetch(`${w.base}/api/v1/site-report`, { method: 'POST', headers: { 'x-api-key': w.keys.platform, 'content-type': 'application/json' }, body: JSON.stringify({ ...HOUSTON, zip: '77002' }) });
    const findings = ((await api.json()) as { data: { findings: { registry_id: string; overall_score: number; data_sufficient: boolean }[] } }).data.findings;
    expect(new Set(findings.map((f) => f.data_sufficient))).toEqual(new Set([true, false]));
    const page = await tab();
    await goto(page);
    await useKey(page, w.keys.platform);
    await goto(page, `#/site-report?lat=${HOUSTON.lat}&lng=${HOUSTON.lng}&zip=77002`);
    // table rows in the API's order (nearest first), numbered as on the map
    const rows = await page.$$eval('table.sortable tbody tr', (trs) => trs.map((tr) => ({ text: tr.querySelector('.score-badge').textContent, cls: tr.querySelector('.score-badge').className })));
    const dots = new Map(await page.$$eval('svg.radius-map circle.dot', (cs) => cs.map((c) => [c.getAttribute('data-registry-id'), { cls: c.getAttribute('class'), title: c.querySelector('title').textContent }] as const)));
    expect(rows).toHaveLength(findings.length);
    for (const [k, f] of findings.entries()) {
      const dot = dots.get(f.registry_id)!;
      if (f.data_sufficient) {
        expect([rows[k]!.text, rows[k]!.cls, dot.cls]).toEqual([expect.not.stringContaining('Not enough data'), expect.not.stringContaining('band-none'), expect.not.stringContaining('band-none')]);
      } else {
        expect(rows[k]).toEqual({ text: `${f.overall_score} Not enough data`, cls: 'score-badge band-none' });
        expect([dot.cls, dot.title]).toEqual(['dot band-none', expect.stringContaining(`: score ${f.overall_score} (Not enough data), `)]);
      }
    }
    expect(await page.$$eval('.map-figure .legend li', (lis) => lis.map((li) => (li as HTMLElement).innerText).at(-1))).toBe('Not enough data');
  }, 30_000);

  it('a typed address of a sample facility is located at that facility, which is on site', async () => {
    const f = sampleFacility();
    const page = await tab();
    await goto(page);
    await useKey(page, w.keys.platform);
    await goto(page, '#/site-report');
    const before = await renders(page);
    await page.type('input[name=address]', `${f.fac_street}, ${f.fac_city}, ${f.fac_state} ${f.fac_zip}`);
    await page.click('form[aria-label="Site report"] button[type=submit]');
    await settled(page, 'site-report', before);
    expect(await mainText(page)).toContain(`Located at the address: the coordinates of ${f.fac_name}`);
    expect(await page.$eval('table.sortable tbody tr', (r) => (r as HTMLElement).innerText)).toContain('on site');
  }, 30_000);

  it('a Starter key is told in one line that the site report needs Platform, and no call answers 403', async () => {
    const page = await tab();
    const asked: string[] = [];
    page.on('request', (r) => void (r.url().includes('/api/v1/site-report') && asked.push(r.url())));
    await goto(page);
    await useKey(page, w.keys.starter);
    await goto(page, `#/site-report?lat=${HOUSTON.lat}&lng=${HOUSTON.lng}`);
    expect(await mainText(page)).toContain('The site report requires a Platform plan or above; this key is on the Starter plan.');
    expect(asked).toEqual([]);
    expect(await page.$$eval('nav a', (as) => as.filter((a) => (a as HTMLElement).offsetParent !== null).map((a) => a.textContent))).not.toContain('Site report');
  }, 30_000);

  it('a click on the area map opens the site report at the clicked point', async () => {
    const page = await tab();
    await goto(page);
    await useKey(page, w.keys.platform);
    await goto(page, `#/area?lat=${HOUSTON.lat}&lng=${HOUSTON.lng}&r=5`);
    const mark = await page.$eval('.center-mark circle', (p) => {
      const r = (p as HTMLElement).getBoundingClientRect();
      return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
    });
    const before = await renders(page);
    await page.mouse.click(mark.x, mark.y);
    await settled(page, 'site-report', before);
    const params = new URL(page.url()).hash.split('?')[1]!;
    const at = new URLSearchParams(params);
    expect(Math.abs(Number(at.get('lat')) - HOUSTON.lat)).toBeLessThan(0.01);
    expect(Math.abs(Number(at.get('lng')) - HOUSTON.lng)).toBeLessThan(0.01);
    expect(await page.$$('svg.radius-map')).toHaveLength(1);
  }, 30_000);

  it('axe-core finds no serious or critical violation on the site report view; nothing overflows at 375 px', async () => {
    for (const width of [1280, 375]) {
      const page = await tab(width);
      await goto(page);
      await useKey(page, w.keys.platform);
      await goto(page, `#/site-report?lat=${HOUSTON.lat}&lng=${HOUSTON.lng}&zip=77002&name=Riverside%20parcel`);
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: join(ARTIFACTS, `site-report-full-${width}.png`), fullPage: true });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    }
  }, 60_000);
});

describe('accessibility and small screens', () => {
  it('axe-core finds no serious or critical violation on the lookup, facility and area views (1280 px) and the area view (375 px); screenshots at both widths', async () => {
    const f = sampleFacility();
    for (const width of [1280, 375]) {
      const page = await tab(width);
      // Every view at 1280 px; at 375 px the area view, whose map, form and table reflow the most.
      const audit = async () => void (width === 1280 && expect(await axeViolations(page)).toEqual([]));
      await goto(page, `#/lookup?address=${encodeURIComponent(`${f.fac_street}, ${f.fac_city}, ${f.fac_state} ${f.fac_zip}`)}`);
      await audit();
      await page.screenshot({ path: join(ARTIFACTS, `lookup-${width}.png`), fullPage: true });
      await useKey(page, w.keys.starter);
      await goto(page, `#/facility/${f.registry_id}`);
      await audit();
      await page.screenshot({ path: join(ARTIFACTS, `facility-${width}.png`), fullPage: true });
      await goto(page, `#/area?lat=${f.lat}&lng=${f.lng}&r=10`);
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: join(ARTIFACTS, `area-${width}.png`), fullPage: true });
      // Usable at 375 px: nothing wider than the screen but the tables' own scroll boxes, and a line
      // naming the columns such a box hides (at 1280 px there are none, and no line).
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await page.waitForFunction(() => document.querySelector('.scroll-cue')?.dataset.cut !== undefined);
      const cue = await page.$eval('.scroll-cue', (p) => ((p as HTMLElement).hidden ? null : (p as HTMLElement).innerText));
      if (width === 375) expect(cue).toMatch(/^More columns to the right: .*Enforcement\. Scroll the table sideways to see them\.$/);
      else expect(cue).toBeNull();
    }
  }, 60_000);

  it('the keyboard alone reaches the key field, the navigation and the address form, and Enter looks up', async () => {
    const f = sampleFacility();
    const page = await tab();
    await goto(page);
    const reached: string[] = [];
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      const el = await page.evaluate(() => {
        const a = document.activeElement as HTMLElement;
        return a.getAttribute('name') || a.id || a.textContent?.trim() || a.tagName;
      });
      reached.push(el);
      if (el === 'address') break;
    }
    expect(reached.slice(0, 3)).toEqual(['Skip to content', 'api-key', 'Use key']);
    expect(reached).toContain('Search');
    expect(reached[reached.length - 1]).toBe('address');
    const before = await renders(page);
    await page.keyboard.type(`${f.fac_street}, ${f.fac_city}, ${f.fac_state} ${f.fac_zip}`);
    await page.keyboard.press('Enter');
    await settled(page, 'lookup', before);
    expect(await mainText(page)).toContain(f.fac_name);
  }, 30_000);
});
