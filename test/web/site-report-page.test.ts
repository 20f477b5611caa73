import { afterAll, afterEach, beforeAll, describe, expect, it } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { removeTempDirs, tempDir } from '../support/temp-dir';
import { ARTIFACTS, axeViolations, mainText, renders, settled, startWebWorld, useKey, type WebWorld } from './support';

// Callbacks passed to page.evaluate/$eval run inside Chromium; this project is typed without the DOM library.
declare const document: any;
declare const DOMPoint: any;
type HTMLElement = any;

let w: WebWorld;
beforeAll(async () => {
  w = await startWebWorld();
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

type Polygon = { type: 'Polygon'; coordinates: number[][][] };
/** A block in midtown Manhattan holding one facility of the sample (990004065288). */
const MIDTOWN: Polygon = { type: 'Polygon', coordinates: [[[-73.9936, 40.7489], [-73.9884, 40.7489], [-73.988, 40.7521], [-73.9931, 40.7524], [-73.9936, 40.7489]]] };
/** A parcel in lower Manhattan: a facility of the sample within the distances is placed only by its ZIP+4's centre. */
const LOWER: Polygon = { type: 'Polygon', coordinates: [[[-74.0078, 40.7118], [-74.0031, 40.7112], [-74.003, 40.713], [-74.0062, 40.7149], [-74.0081, 40.714], [-74.0078, 40.7118]]] };

/** What the API answers for `body` (the test's reference, asked directly). */
async function apiAnswer(body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${w.base}/api/v1/site-report`, { method: 'POST', headers: { 'x-api-key': w.keys.platform, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

/** A tab on the site report form with a Platform key; `sent` collects the bodies the page posts to the site report. */
async function siteReportTab(width = 1280): Promise<{ page: Page; sent: any[] }> {
  const page = await w.tab(width);
  pages.push(page);
  const sent: any[] = [];
  page.on('request', (r) => void (r.url().includes('/api/v1/site-report') && r.method() === 'POST' && sent.push(JSON.parse(r.postData() ?? 'null'))));
  await page.goto(`${w.base}/#/lookup`);
  await settled(page, 'lookup', 0);
  await useKey(page, w.keys.platform);
  const before = await renders(page);
  await page.goto(`${w.base}/#/site-report`);
  await settled(page, 'site-report', before);
  return { page, sent };
}

/** Pastes `text` into the parcel field (and `fields` into theirs) and submits, waiting for the view to settle. */
async function submitParcel(page: Page, text: string, fields: Record<string, string> = {}): Promise<void> {
  await page.$eval('textarea[name=boundary]', (el, v) => void ((el as HTMLElement).value = v), text);
  for (const [name, value] of Object.entries(fields)) await page.type(`input[name=${name}]`, value);
  const before = await renders(page);
  await page.click('form[aria-label="Site report"] button[type=submit]');
  await settled(page, 'site-report', before);
}

/** The sentence shown beside the parcel field, as the field's description (aria-describedby) carries it. */
const parcelProblem = (page: Page) =>
  page.$eval('textarea[name=boundary]', (el) => ({
    invalid: (el as HTMLElement).getAttribute('aria-invalid'),
    said: ((el as HTMLElement).getAttribute('aria-describedby') ?? '').split(' ').map((id: string) => document.getElementById(id)?.textContent ?? '').join(' ').trim(),
  }));

describe('a parcel on the site report view', () => {
  it('pasted as a GeoJSON Feature, is sent as the boundary; the map outlines it and marks its centre; dots and table rows carry the same numbers', async () => {
    const expected = (await apiAnswer({ boundary: MIDTOWN, zip: '10001' })).body.data;
    const onSite = expected.findings.filter((f: { direction: string }) => f.direction === 'on site');
    expect(onSite.length).toBeGreaterThan(0);
    expect(expected.findings.length).toBeGreaterThan(onSite.length);
    const { page, sent } = await siteReportTab();
    await submitParcel(page, JSON.stringify({ type: 'Feature', properties: { name: 'Block 780' }, geometry: MIDTOWN }), { zip: '10001' });
    expect(sent).toEqual([{ zip: '10001', boundary: MIDTOWN }]);
    expect(new URLSearchParams(page.url().split('?')[1]).get('parcel')).toMatch(/^[0-9a-z]+$/);
    expect(await page.$$eval('svg.radius-map path.radius-parcel', (ps) => ps.length)).toBe(1);
    expect(await page.$eval('svg.radius-map rect.radius-site title', (t) => t.textContent)).toBe("The parcel's centre");
    // the outline and the dots are drawn alike: the on-site facilities' dots inside the outline, the others outside
    const inside = await page.$$eval('svg.radius-map circle.dot', (cs) => {
      const outline = document.querySelector('svg.radius-map path.radius-parcel');
      return Object.fromEntries(cs.map((c) => [c.getAttribute('data-registry-id'), outline.isPointInFill(new DOMPoint(Number(c.getAttribute('cx')), Number(c.getAttribute('cy'))))]));
    });
    expect(inside).toEqual(Object.fromEntries(expected.findings.map((f: { registry_id: string; direction: string }) => [f.registry_id, f.direction === 'on site'])));
    // a dot's number is its finding's place in the API's list, and so is the table row's number
    const numbers = await page.$$eval('svg.radius-map text.dot-number', (ts) => ts.map((t) => [Number(t.textContent), t.getAttribute('data-registry-id')]));
    expect(numbers.length).toBe(expected.findings.length);
    for (const [n, id] of numbers) expect(id).toBe(expected.findings[(n as number) - 1].registry_id);
    const rows = await page.$$eval('table.sortable tbody tr', (trs) => trs.map((tr) => [Number((tr as HTMLElement).cells[0].textContent), (tr as HTMLElement).cells[1].innerText]));
    expect(rows.length).toBe(expected.findings.length);
    for (const [n, facility] of rows) expect(facility).toContain(`Registry ID ${expected.findings[(n as number) - 1].registry_id}`);
    expect(await mainText(page)).toContain("The parcel's centre");
    // the summary's on-site row is searched inside the parcel, not within a distance of a point
    const onSiteRow = await page.$$eval('table tbody tr', (trs) => trs.map((tr) => (tr as HTMLElement).innerText).find((t) => t.startsWith('On the property')));
    expect(onSiteRow?.split('\t')[1]).toBe('inside');
    await page.$eval('svg.radius-map', (el) => el.scrollIntoView());
    await page.screenshot({ path: join(ARTIFACTS, 'site-report-parcel-1280.png') });
  }, 40_000);

  it('picked as a .geojson file holding one polygon feature, fills the field and is sent as the boundary', async () => {
    const file = join(tempDir('parcel-file'), 'lot.geojson');
    writeFileSync(file, JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', properties: { lot: 7 }, geometry: MIDTOWN }] }));
    const { page, sent } = await siteReportTab();
    const picker = (await page.$('input[type=file]'))!;
    await picker.uploadFile(file);
    await page.waitForFunction(() => document.querySelector('textarea[name=boundary]').value.includes('FeatureCollection'));
    const before = await renders(page);
    await page.click('form[aria-label="Site report"] button[type=submit]');
    await settled(page, 'site-report', before);
    expect(sent).toEqual([{ boundary: MIDTOWN }]);
    expect(await page.$$eval('svg.radius-map path.radius-parcel', (ps) => ps.length)).toBe(1);
  }, 30_000);

  it("with a ring left open, shows the API's 422 sentence naming boundary beside the field, and no report", async () => {
    const open = { type: 'Polygon', coordinates: [MIDTOWN.coordinates[0]!.slice(0, -1)] };
    const api = await apiAnswer({ boundary: open });
    expect(api.status).toBe(422);
    expect(api.body.error.message).toContain('boundary');
    const { page, sent } = await siteReportTab();
    await submitParcel(page, JSON.stringify(open));
    expect(sent).toEqual([{ boundary: open }]);
    const { invalid, said } = await parcelProblem(page);
    expect(invalid).toBe('true');
    expect(said).toContain(api.body.error.message);
    expect(await page.$$('svg.radius-map')).toHaveLength(0);
  }, 30_000);

  it('that is not JSON, or a line rather than a polygon, is refused beside the field in a sentence, without a call', async () => {
    const { page, sent } = await siteReportTab();
    await page.$eval('textarea[name=boundary]', (el) => void ((el as HTMLElement).value = '{"type": "Polygon", coordinates: '));
    await page.click('form[aria-label="Site report"] button[type=submit]');
    await page.waitForFunction(() => document.querySelector('textarea[name=boundary]').getAttribute('aria-invalid') === 'true');
    expect((await parcelProblem(page)).said).toContain('The parcel is not JSON: paste GeoJSON text, or pick a .geojson file.');
    await page.$eval('textarea[name=boundary]', (el) => void ((el as HTMLElement).value = JSON.stringify({ type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates: [[-74, 40.7], [-73.99, 40.71]] } })));
    await page.click('form[aria-label="Site report"] button[type=submit]');
    await page.waitForFunction(() => /LineString/.test(document.querySelector('.field-problem').textContent));
    expect((await parcelProblem(page)).said).toContain('The parcel must be a GeoJSON Polygon or MultiPolygon, or a Feature or FeatureCollection holding one; this is a LineString.');
    expect(sent).toEqual([]);
  }, 30_000);
});

describe("the site report view's findings, unmapped records and warnings", () => {
  it("shows every warning's message, each unmapped record with its ZIP and reason, and per finding its file and location quality in words", async () => {
    const expected = (await apiAnswer({ boundary: LOWER, zip: '10007' })).body.data;
    expect(expected.warnings.map((x: { code: string }) => x.code)).toContain('APPROXIMATE_FACILITY_LOCATIONS');
    expect(expected.unmapped.facilities.length).toBeGreaterThan(0);
    const { page } = await siteReportTab();
    await submitParcel(page, JSON.stringify(LOWER), { zip: '10007' });
    expect(await page.$$eval('section.warnings li', (lis) => lis.map((li) => li.textContent))).toEqual(expected.warnings.map((x: { message: string }) => x.message));
    const unplaced = await page.$$eval('table.unmapped tbody tr', (trs) => trs.map((tr) => [...(tr as HTMLElement).cells].map((c: HTMLElement) => c.innerText)));
    expect(unplaced.map(([, zip, reason]) => [zip, reason])).toEqual(expected.unmapped.facilities.map((f: { zip: string; reason: string }) => [f.zip, f.reason]));
    // the findings table, in the API's order: under each name the file's IDs and dates (as the PDF prints them), and the location's accuracy and method
    const where = (await page.$$eval('table.sortable thead th', (ths) => ths.map((th) => th.textContent))).indexOf('Location');
    const cells = await page.$$eval('table.sortable tbody tr', (trs, at) => trs.map((tr) => [(tr as HTMLElement).cells[1].querySelector('ul.file')?.innerText ?? '', (tr as HTMLElement).cells[at].innerText]), where);
    expect(cells).toHaveLength(expected.findings.length);
    const labels = { air: 'AIR', npdes: 'NPDES', rcra: 'RCRA', sdwa: 'SDWA', tri: 'TRI' } as const;
    let withDetail = 0;
    expected.findings.forEach((f: any, i: number) => {
      const lines = [
        ...Object.entries(labels).filter(([k]) => f.program_ids[k].length > 0).map(([k, label]) => `${label} ${f.program_ids[k].join(', ')}`),
        ...(f.rcra_generator_size ? [`RCRA generator: ${f.rcra_generator_size}`] : []),
        ...(f.latest_violation_quarter ? [`Last violation: ${f.latest_violation_quarter}`] : []),
        ...(f.latest_action_date ? [`Last action: ${f.latest_action_date}`] : []),
      ];
      withDetail += lines.length > 0 ? 1 : 0;
      expect(cells[i]![0]!.split('\n').filter(Boolean)).toEqual(lines);
      expect(cells[i]![1]!.split('\n')).toEqual([f.location_accuracy_m === null ? 'Accuracy not stated' : `±${f.location_accuracy_m.toLocaleString('en-US')} m`, ...(f.location_method ? [f.location_method] : [])]);
    });
    expect(withDetail).toBeGreaterThan(0);
    const text = await mainText(page);
    for (const mark of ['`', '{', '[', '"program_ids"']) expect(text).not.toContain(mark);
  }, 40_000);
});

describe("the site report view's map", () => {
  it('of a parcel 20 miles across has a scale bar of a round length at least 40 px long, true to the mile ring', async () => {
    // open water in the Gulf of Mexico: the map is drawn, with nothing on it
    const gulf = { type: 'Polygon', coordinates: [[[-91.16, 26.85], [-90.84, 26.85], [-90.84, 27.15], [-91.16, 27.15], [-91.16, 26.85]]] };
    const { page } = await siteReportTab();
    await submitParcel(page, JSON.stringify(gulf));
    const bar = await page.$eval('svg.radius-map .radius-scale-bar', (g) => ({
      miles: Number(g.getAttribute('data-miles')),
      width: Number(g.querySelector('rect').getAttribute('width')),
      label: g.querySelectorAll('text')[1].textContent,
      mile: Number(document.querySelector('svg.radius-map circle.radius-ring-mile').getAttribute('r')),
    }));
    expect([0.125, 0.25, 0.5, 1, 2, 5, 10, 20]).toContain(bar.miles);
    expect(bar.label).toBe(`${bar.miles} mi`);
    expect(bar.width).toBeGreaterThanOrEqual(40);
    expect(Math.abs(bar.width - bar.miles * bar.mile)).toBeLessThan(0.1);
  }, 30_000);

  it('axe-core finds no serious or critical violation on a parcel report; nothing overflows at 375 px', async () => {
    for (const width of [1280, 375]) {
      const { page } = await siteReportTab(width);
      await submitParcel(page, JSON.stringify(LOWER), { zip: '10007' });
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: join(ARTIFACTS, `site-report-parcel-full-${width}.png`), fullPage: true });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    }
  }, 60_000);
});
