#!/usr/bin/env bun
/**
 * First view of the web page, in Debian's Chromium driven by puppeteer-core, against a
 * real `serve` of the bundled sample on loopback:
 *   bun run scripts/bench-web.ts [--runs 10]
 * Each run is a cold tab (HTTP cache off) loading `/`. Prints, as median and worst: first contentful
 * paint, and "ready" (the address lookup view drawn and the dataset line filled from
 * /api/v1/status), both from navigation start; and the bytes the first view transferred (gzip, as
 * the browser received them). The budget is ready ≤ 1 s and ≤ 300 KB. The machine may be shared:
 * each round also loads /api/v1/status in a cold tab, a baseline measured in the same run.
 */
import { parseArgs } from 'node:util';
import { ensureWeb } from './build-web';
import { startServer } from '../test/support/process';
import { tempDir } from '../test/support/temp-dir';
import { openBrowser } from '../test/web/browser';

// Callbacks passed to page.evaluate/$eval/waitForFunction run inside Chromium; this project is typed
// without the DOM library, so the browser globals they use are declared here, for this file only.
declare const document: any;

const { values } = parseArgs({ options: { runs: { type: 'string' } } });
const runs = Number(values.runs ?? 10);

await ensureWeb();
const stateDir = tempDir('bench-web');
const server = await startServer(['--state-dir', stateDir]);
const chromium = await openBrowser();
const fcp: number[] = [];
const ready: number[] = [];
const bytes: number[] = [];
const status: number[] = [];
try {
  for (let i = 0; i < runs; i++) {
    const page = await chromium.browser.newPage();
    await page.setCacheEnabled(false);
    await page.setViewport({ width: 1280, height: 900 });
    const cdp = await page.createCDPSession();
    await cdp.send('Network.enable');
    let transferred = 0;
    cdp.on('Network.loadingFinished', (e) => void (transferred += e.encodedDataLength));
    await page.goto(`${server.base}/`);
    await page.waitForFunction(() => performance.getEntriesByName('first-view-ready').length > 0);
    const t = await page.evaluate(() => ({
      ready: performance.getEntriesByName('first-view-ready')[0]!.startTime,
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
    }));
    await Bun.sleep(50); // the last loadingFinished events
    fcp.push(t.fcp);
    ready.push(t.ready);
    bytes.push(transferred);
    await page.close();
    // Baseline in the same round: a cold tab loading the status JSON (Chromium's own floor for one
    // same-origin document and one API answer on this machine, now).
    const plain = await chromium.browser.newPage();
    await plain.setCacheEnabled(false);
    await plain.goto(`${server.base}/api/v1/status`, { waitUntil: 'load' });
    status.push(await plain.evaluate(() => (performance as any).getEntriesByType('navigation')[0].loadEventEnd as number));
    await plain.close();
  }
} finally {
  await chromium.close();
  await server.stop();
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const worst = (xs: number[]) => Math.max(...xs);
console.log(`web first view of / (bundled sample, ${runs} cold tabs, headless Chromium)`);
console.log(`  first contentful paint  median ${median(fcp).toFixed(0)} ms  worst ${worst(fcp).toFixed(0)} ms`);
console.log(`  ready (view + dataset)  median ${median(ready).toFixed(0)} ms  worst ${worst(ready).toFixed(0)} ms   budget 1000 ms`);
console.log(`  transferred             ${(median(bytes) / 1024).toFixed(1)} KiB (gzip, headers included)   budget 300 KB`);
console.log(`  baseline: cold tab loading /api/v1/status  median ${median(status).toFixed(0)} ms; ready / baseline = ${(median(ready) / median(status)).toFixed(1)}x`);
