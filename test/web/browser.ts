import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

/** Debian's Chromium: puppeteer-core drives it; nothing is downloaded. */
export const CHROMIUM = '/usr/bin/chromium';

// Every switch that would make Chromium talk to the outside world on its own is off.
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-default-apps',
  '--disable-extensions',
  '--metrics-recording-only',
  '--password-store=basic',
];

export type OpenBrowser = { browser: Browser; close: () => Promise<void> };

/**
 * Launches Chromium with a fresh profile. `close` always leaves no process behind: a polite close,
 * then SIGKILL of the process group's leader if it is still there, then the profile is removed.
 */
export async function openBrowser(): Promise<OpenBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'fcs-chromium-'));
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [...ARGS, `--user-data-dir=${profile}`],
    userDataDir: profile,
    protocolTimeout: 30_000,
    handleSIGINT: true,
    handleSIGTERM: true,
    handleSIGHUP: true,
  });
  const proc = browser.process();
  const close = async () => {
    try {
      await Promise.race([browser.close(), Bun.sleep(5_000)]);
    } catch {
      // already gone
    }
    if (proc && proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    rmSync(profile, { recursive: true, force: true });
  };
  return { browser, close };
}

/** What a page did that it must not: requests off loopback and console errors. */
export type PageWatch = { offsite: string[]; errors: string[] };

/**
 * Opens a tab that aborts (and records) every request not to `base`, and records every console
 * error and uncaught exception. Chromium logs each non-2xx fetch as a console error ("Failed to
 * load resource"); those for API answers the page turns into sentences (402/403/404/429) are
 * expected and listed separately, so only real faults (script errors, CSP violations) count.
 */
export async function watchedPage(browser: Browser, base: string, watch: PageWatch, width = 1280): Promise<Page> {
  const page = await browser.newPage();
  await page.setViewport({ width, height: 900 });
  await page.setRequestInterception(true);
  page.on('request', (req) => {
    const url = req.url();
    if (url.startsWith(`${base}/`) || url.startsWith('blob:') || url.startsWith('data:')) return void req.continue();
    watch.offsite.push(url);
    void req.abort('blockedbyclient');
  });
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const text = msg.text();
    const where = msg.location().url ?? '';
    if (/^Failed to load resource: the server responded with a status of (40[234]|429)\b/.test(text) && where.startsWith(`${base}/api/`)) return;
    watch.errors.push(`${text} (${where})`);
  });
  page.on('pageerror', (e) => watch.errors.push(`uncaught: ${(e as Error).message}`));
  return page;
}
