import { Database } from 'bun:sqlite';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { ensureWeb } from '../../scripts/build-web';
import { MAIN, ROOT, startServer, type Service } from '../support/process';
import { tempDir } from '../support/temp-dir';
import { openBrowser, watchedPage, type OpenBrowser, type PageWatch } from './browser';

// Callbacks passed to page.evaluate/$eval/waitForFunction run inside Chromium; this project is typed
// without the DOM library, so the browser globals they use are declared here, for this file only.
declare const document: any;
type HTMLElement = any;

/** Screenshots land here (gitignored): the suite's artifacts. */
export const ARTIFACTS = join(ROOT, 'test-artifacts', 'web');

export type Keys = { free: string; starter: string; platform: string };

/** A facility of data/sample.sqlite, read with plain SQLite (not the code under test). */
export type SampleFacility = { registry_id: string; fac_name: string; fac_street: string; fac_city: string; fac_state: string; fac_zip: string; lat: number; lng: number; overall_score: number };

export function sampleFacility(where = '1 = 1'): SampleFacility {
  const db = new Database(join(ROOT, 'data', 'sample.sqlite'), { readonly: true });
  try {
    return db.query(`SELECT registry_id, fac_name, fac_street, fac_city, fac_state, fac_zip, lat, lng, overall_score FROM facility WHERE ${where} ORDER BY registry_id LIMIT 1`).get() as SampleFacility;
  } finally {
    db.close();
  }
}

export type WebWorld = {
  server: Service;
  base: string;
  keys: Keys;
  chromium: OpenBrowser;
  watch: PageWatch;
  /** A new tab at `width` px, watched for off-loopback requests and console errors. */
  tab: (width?: number) => Promise<Page>;
  /** Stops Chromium and serve; resolves with the ids of Chromium processes that had to be killed afterwards. */
  close: () => Promise<number[]>;
};

/**
 * One real `serve` of the bundled sample (or of `opts.index`) on loopback (its own state dir with a key per tier) and
 * one Chromium. `close` kills both and removes the temp dirs, whatever happened before.
 */
export async function startWebWorld(opts: { index?: string } = {}): Promise<WebWorld> {
  await ensureWeb(() => {});
  mkdirSync(ARTIFACTS, { recursive: true });
  const stateDir = tempDir('web');
  // The keys CLI, one tier after the other.
  const key = async (tier: string) => {
    const p = Bun.spawn([process.execPath, MAIN, 'keys', 'create', '--tier', tier, '--json', '--state-dir', stateDir], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' });
    const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
    if (code !== 0) throw new Error(`keys create ${tier} failed: ${err}`);
    return (JSON.parse(out) as { key: string }).key;
  };
  const free = await key('free');
  const starter = await key('starter');
  const platform = await key('platform');
  const keys = { free, starter, platform };
  let server: Service | null = null;
  let chromium: OpenBrowser | null = null;
  const close = async () => {
    const left = (await chromium?.close()) ?? [];
    await server?.stop();
    return left;
  };
  // Both at once; whichever started is closed again if the other failed.
  const index = opts.index ? ['--index', opts.index] : [];
  const [s, c] = await Promise.allSettled([startServer(['--state-dir', stateDir, '--trusted-proxies', '127.0.0.1/32', ...index]), openBrowser()]);
  if (s.status === 'fulfilled') server = s.value;
  if (c.status === 'fulfilled') chromium = c.value;
  if (s.status === 'rejected' || c.status === 'rejected') {
    await close();
    throw s.status === 'rejected' ? s.reason : (c as PromiseRejectedResult).reason;
  }
  const watch: PageWatch = { offsite: [], errors: [] };
  const base = server!.base;
  const browser = chromium!.browser;
  return { server: server!, base, keys, chromium: chromium!, watch, tab: (width = 1280) => watchedPage(browser, base, watch, width), close };
}

/** Types the key into the page's key box, as a person would. */
export async function useKey(page: Page, key: string): Promise<void> {
  await page.type('#api-key', key);
  await page.click('.key-form button[type=submit]');
  await page.waitForFunction(() => !document.querySelector('#api-key'));
}

/** The page's render counter (main[data-ready] = "view:n" after the n-th render finished). */
export async function renders(page: Page): Promise<number> {
  return page.$eval('#main', (m) => Number((m as HTMLElement).dataset.ready?.split(':')[1] ?? 0));
}

/** Waits for a render of `view` later than render `after` to finish, and for every "Loading…" line to go. */
export async function settled(page: Page, view: string, after = 0): Promise<void> {
  await page.waitForFunction(
    (v, n) => {
      const [shown, seq] = (document.getElementById('main')?.dataset.ready ?? ':0').split(':');
      return shown === v && Number(seq) > n && !document.querySelector('.loading');
    },
    { timeout: 15_000 },
    view,
    after,
  );
}

export const mainText = (page: Page) => page.$eval('#main', (m) => (m as HTMLElement).innerText);

const AXE_SOURCE = await Bun.file(join(ROOT, 'node_modules', 'axe-core', 'axe.min.js')).text();

/** axe-core's serious and critical violations on the page as it stands, one line each (none: []). */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = (await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: (ctx: unknown, o: object) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe;
    return (await axe.run(document, { resultTypes: ['violations'] })).violations;
  })) as { id: string; impact: string; nodes: { target: string[] }[] }[];
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
