#!/usr/bin/env bun
/**
 * The docs' pictures, made from the current build (`npm run docs:images`):
 *   docs/report-page1.png       page 1 of a Platform dossier of a bundled-sample facility (pdftoppm, 60 dpi)
 *   docs/site-report-page1.png  pages 1 and 2 (cover, radius map) of the site report of a parcel in
 *   docs/site-report-page2.png  lower Manhattan (pdftoppm, 55 dpi: legible, and small in the repository)
 *   docs/web-page.png           the web page's area view around central Houston (Debian's Chromium, 1280 px)
 * Serves the bundled FICTITIOUS sample on loopback with a fresh state dir, like the tests do; nothing
 * leaves loopback (the browser's requests elsewhere are aborted). Needs poppler-utils and chromium.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { ensureWeb } from './build-web';
import { MAIN, ROOT, startServer, type Service } from '../test/support/process';
import { tempDir } from '../test/support/temp-dir';
import { renders, settled, useKey } from '../test/web/support';

// Callbacks passed to page.$eval run inside Chromium; this project is typed without the DOM library.
declare const document: any;

const DOCS = join(ROOT, 'docs');
/** A Houston refinery of the bundled sample with an open enforcement action: the README's example ID. */
const REPORT_ID = '990000914553';
const AREA = '#/area?lat=29.76&lng=-95.37&r=5';
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

function run(cmd: string[]): void {
  const p = Bun.spawnSync(cmd, { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' });
  if (p.exitCode !== 0) throw new Error(`${cmd.join(' ')} exited ${p.exitCode}: ${p.stderr.toString().trim()}`);
}

function createKey(stateDir: string, tier: string): string {
  const p = Bun.spawnSync([process.execPath, MAIN, 'keys', 'create', '--tier', tier, '--print-key', '--state-dir', stateDir], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' });
  if (p.exitCode !== 0) throw new Error(`keys create ${tier} failed: ${p.stderr.toString().trim()}`);
  return p.stdout.toString().trim();
}

async function reportImage(base: string, key: string, scratch: string): Promise<void> {
  const res = await fetch(`${base}/api/v1/facility/${REPORT_ID}/report`, { method: 'POST', headers: { 'x-api-key': key } });
  if (res.status !== 200) throw new Error(`report answered ${res.status}: ${await res.text()}`);
  const pdf = join(scratch, 'report.pdf');
  writeFileSync(pdf, new Uint8Array(await res.arrayBuffer()));
  // pdftoppm appends the page number to the prefix unless -singlefile is given.
  run(['pdftoppm', '-png', '-r', '60', '-f', '1', '-l', '1', '-singlefile', pdf, join(DOCS, 'report-page1')]);
}

/**
 * Pages 1 and 2 of the site report of a parcel: a block in lower Manhattan holding one facility of
 * the sample, with a dozen more around it and one placed only by its ZIP+4's centre (a warning, an
 * unplaced record). Returns the files written.
 */
async function siteReportImages(base: string, key: string, scratch: string): Promise<string[]> {
  const boundary = { type: 'Polygon', coordinates: [[[-74.0078, 40.7118], [-74.0031, 40.7112], [-74.003, 40.713], [-74.0062, 40.7149], [-74.0081, 40.714], [-74.0078, 40.7118]]] };
  const body = { boundary, zip: '10007', name: 'Lower Manhattan parcel (example)' };
  const res = await fetch(`${base}/api/v1/site-report?format=pdf`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status !== 200) throw new Error(`site report answered ${res.status}: ${await res.text()}`);
  const pdf = join(scratch, 'site-report.pdf');
  writeFileSync(pdf, new Uint8Array(await res.arrayBuffer()));
  return [1, 2].map((n) => {
    run(['pdftoppm', '-png', '-r', '55', '-f', String(n), '-l', String(n), '-singlefile', pdf, join(DOCS, `site-report-page${n}`)]);
    return `docs/site-report-page${n}.png`;
  });
}

async function webImage(browser: Browser, base: string, key: string): Promise<void> {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  await page.setRequestInterception(true);
  page.on('request', (req) => {
    const url = req.url();
    if (url.startsWith(`${base}/`) || url.startsWith('blob:') || url.startsWith('data:')) void req.continue();
    else void req.abort('blockedbyclient');
  });
  await page.goto(`${base}/#/lookup`);
  await settled(page, 'lookup', 0);
  await useKey(page, key);
  const before = await renders(page);
  await page.goto(`${base}/${AREA}`);
  await settled(page, 'area', before);
  const dots = await page.$$eval('svg.us-map circle.dot', (cs) => cs.length);
  if (dots < 20) throw new Error(`the area view drew ${dots} dots; expected the city's facilities`);
  await page.$eval('.area-summary', (el) => el.scrollIntoView());
  await page.screenshot({ path: join(DOCS, 'web-page.png') });
  await page.close();
}

await ensureWeb(() => {});
run([process.execPath, 'run', 'scripts/sample.ts', 'ensure']);
const stateDir = tempDir('docs-images');
const scratch = tempDir('docs-images-pdf');
const profile = tempDir('docs-images-chromium');
mkdirSync(DOCS, { recursive: true });
const platform = createKey(stateDir, 'platform');
const starter = createKey(stateDir, 'starter');

let server: Service | null = null;
let browser: Browser | null = null;
try {
  server = await startServer(['--state-dir', stateDir]);
  await reportImage(server.base, platform, scratch);
  const siteReport = await siteReportImages(server.base, platform, scratch);
  browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS, `--user-data-dir=${profile}`], userDataDir: profile });
  await webImage(browser, server.base, starter);
  for (const path of ['docs/report-page1.png', ...siteReport, 'docs/web-page.png']) console.log(`docs-images: wrote ${path}`);
} finally {
  const proc = browser?.process();
  await Promise.race([browser?.close(), Bun.sleep(5_000)]).catch(() => {});
  if (proc && proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
  await server?.stop('SIGTERM');
  for (const dir of [stateDir, scratch, profile]) rmSync(dir, { recursive: true, force: true });
}
