import { beforeAll, describe, expect, it } from 'bun:test';
import { openIndex } from '../../src/index/bundled';
import { json, makeWorld, type TestWorld } from '../helpers';
import { pdfText } from '../reports/pdf-tools';
import { ROOT } from '../support/process';

// What a reader of a site report sees is prose: no markdown markup, and the sample's FICTITIOUS mark once per line.
let world: TestWorld;
let key: string;
beforeAll(async () => {
  const ensure = Bun.spawnSync([process.execPath, 'run', 'scripts/sample.ts', 'ensure'], { cwd: ROOT });
  if (ensure.exitCode !== 0) throw new Error(`sample build failed: ${ensure.stderr}`);
  world = makeWorld({ deps: { index: await openIndex(null) }, config: { reportCacheDir: 'off' } }); // every PDF rendered by this code
  key = (await world.keyFor('platform')).key;
}, 120_000);

const report = (body: object, format: 'json' | 'pdf') =>
  world.call(`/api/v1/site-report?format=${format}`, { method: 'POST', key, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('site report wording on the bundled sample', () => {
  it.each([
    ['coordinates without a ZIP', { lat: 29.76, lng: -95.37 }],
    ['coordinates with a ZIP', { lat: 29.76, lng: -95.37, zip: '77002' }],
    ['an address that matches nothing but its ZIP', { address: '1 Nowhere Ln, Houston, TX 77002' }],
  ])('%s: no backtick in the JSON or the PDF text', async (_what, body) => {
    const res = await report(body, 'json');
    expect(res.status).toBe(200);
    expect(await res.text()).not.toContain('`');
    const pdf = new Uint8Array(await (await report(body, 'pdf')).arrayBuffer());
    expect(pdfText(pdf)).not.toContain('`');
  }, 60_000);

  it('coordinates without a ZIP: the site note says which ZIP was taken and why, in words a page reader can act on', async () => {
    const data = (await json(await report({ lat: 29.76, lng: -95.37 }, 'json'))).data;
    expect(data.site.note).toMatch(/No ZIP was given: ZIP \d{5} is the one whose centre is nearest the site \(\d+\.\d mi, bundled ZIP table\)\.$/);
    expect(data.unmapped).toMatchObject({ zip: data.site.zip, searched: true });
  });

  it("the PDF's Data line names the sample once as FICTITIOUS", async () => {
    const text = pdfText(new Uint8Array(await (await report({ lat: 29.76, lng: -95.37 }, 'pdf')).arrayBuffer())).replace(/\s+/g, ' ');
    const line = /DATA FICTITIOUS sample[^;]*;/.exec(text)?.[0] ?? '';
    expect(line).toContain('as of');
    expect(line.match(/fictitious/gi)).toHaveLength(1);
  }, 60_000);

  it('a PDF for coordinates says them once (the title), then their decimal form once, and "located by" without a "how" repeating it', async () => {
    const all = pdfText(new Uint8Array(await (await report({ lat: 29.76, lng: -95.37 }, 'pdf')).arrayBuffer())).replace(/\s+/g, ' ');
    const text = all.slice(0, all.indexOf('SUMMARY')); // the cover's header block
    expect(text.match(/29\.76000° N/g)).toHaveLength(1);
    expect(text.match(/29\.76000, -95\.37000/g)).toHaveLength(1);
    expect(text).not.toContain('Located by the coordinates given');
  }, 60_000);
});
