import { readdirSync, readFileSync, rmSync } from 'node:fs';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { tempDir } from '../support/temp-dir';

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

/** `close` resolves with the ids of processes still using the profile afterwards (none, or a test fails). */
export type OpenBrowser = { browser: Browser; close: () => Promise<number[]> };

/** Processes whose command line names `profile` (Chromium's browser, renderer, GPU and utility processes all do). */
function processesUsing(profile: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(profile)) pids.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return pids;
}

/**
 * Launches Chromium with a fresh profile. `close` always leaves no process behind: a polite close,
 * then SIGKILL of the process group's leader if it is still there, then the profile is removed.
 */
export async function openBrowser(): Promise<OpenBrowser> {
  const profile = tempDir('chromium');
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
    // Children (renderers, zygote) go with the browser process; give them a moment, then kill any left.
    for (let i = 0; i < 50 && processesUsing(profile).length > 0; i++) await Bun.sleep(100);
    const left = processesUsing(profile);
    for (const pid of left) process.kill(pid, 'SIGKILL');
    rmSync(profile, { recursive: true, force: true });
    return left;
  };
  return { browser, close };
}

/** What a page did that it must not: requests off loopback and console errors. */
export type PageWatch = { offsite: string[]; errors: string[] };

/**
 * Opens a tab that aborts (and records) every request not to `base`, and records every console
 * error and uncaught exception. Chromium logs each non-2xx fetch as a console error ("Failed to
 * load resource"); those for API answers the page turns into sentences (402/403/404/422/429) are
 * expected and listed separately, so only real faults (script errors, CSP violations) count.
 */
let tabs = 0;

export async function watchedPage(browser: Browser, base: string, watch: PageWatch, width = 1280): Promise<Page> {
  const page = await browser.newPage();
  await page.setViewport({ width, height: 900 });
  // Each tab is its own visitor behind the (trusted) loopback proxy, so each has its own 5 demo
  // lookups an hour, as separate people would (serve runs with --trusted-proxies 127.0.0.1/32).
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': `198.51.100.${++tabs % 250}` });
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
    if (/^Failed to load resource: the server responded with a status of (40[234]|422|429)\b/.test(text) && where.startsWith(`${base}/api/`)) return;
    watch.errors.push(`${text} (${where})`);
  });
  page.on('pageerror', (e) => watch.errors.push(`uncaught: ${(e as Error).message}`));
  return page;
}
