import { Database } from 'bun:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { PLAIN_BODY_MAX } from '../../src/wire/late-body';
import { pdfText, qpdfCheck } from '../reports/pdf-tools';
import { cli, ROOT, startServer, type Service } from '../support/process';
import { tempDir } from '../support/temp-dir';

// How a PDF is written to the socket depends on its size (src/wire/late-body.ts), and only a
// real server shows what goes on the wire: one `serve` of the bundled sample, one kept-alive client.
const SAMPLE = join(ROOT, 'data', 'sample.sqlite');
const db = new Database(SAMPLE, { readonly: true });
const facility = db.query('SELECT registry_id, fac_name, lat, lng FROM facility WHERE lat IS NOT NULL ORDER BY registry_id LIMIT 1').get() as { registry_id: string; fac_name: string; lat: number; lng: number };
// the site report is asked of the sample's densest tenth of a degree, listing every facility within
// 2 miles: a findings table long enough to put the PDF well above PLAIN_BODY_MAX
const dense = db.query('SELECT avg(lat) AS lat, avg(lng) AS lng FROM facility WHERE lat IS NOT NULL GROUP BY round(lat, 1), round(lng, 1) ORDER BY count(*) DESC, 1, 2 LIMIT 1').get() as { lat: number; lng: number };
db.close();

let server: Service;
let stateDir: string;
let key: string;
let accountId: string;

beforeAll(async () => {
  stateDir = tempDir('pdf-http');
  ({ key, account_id: accountId } = JSON.parse(cli(['keys', 'create', '--tier', 'platform', '--json', '--state-dir', stateDir]).stdout));
  server = await startServer(['--index', SAMPLE, '--state-dir', stateDir]);
});
afterAll(async () => {
  await server?.stop();
});

// at five decimals, the precision a site is located to, so the file name shows them as sent
const site = { lat: Math.round(dense.lat * 1e5) / 1e5, lng: Math.round(dense.lng * 1e5) / 1e5 };
const siteBody = JSON.stringify({ ...site, search_distances: { adjoining: 2 } });
const siteReport = () => fetch(`${server.base}/api/v1/site-report?format=pdf`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: siteBody });
const dossier = () => fetch(`${server.base}/api/v1/facility/${facility.registry_id}/report`, { method: 'POST', headers: { 'x-api-key': key } });

/** The PDFs in the server's report cache, each without its one-line entry header. */
function cachedPdfs(): Buffer[] {
  const dir = join(stateDir, 'report-cache');
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name)))
    .map((file) => file.subarray(file.indexOf(10) + 1));
}

/** One HTTP/1.0 request on a raw socket: everything the server sent until it closed. */
function http10(path: string, headers: Record<string, string>, body: string): Promise<{ head: string; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1');
    const got: Buffer[] = [];
    socket.on('data', (d: Buffer) => got.push(d));
    socket.on('error', reject);
    socket.on('end', () => {
      const all = Buffer.concat(got);
      const end = all.indexOf('\r\n\r\n');
      resolve({ head: all.subarray(0, end).toString('latin1'), body: all.subarray(end + 4) });
    });
    const lines = Object.entries({ ...headers, host: '127.0.0.1', 'content-length': String(Buffer.byteLength(body)) }).map(([k, v]) => `${k}: ${v}`);
    socket.write(`POST ${path} HTTP/1.0\r\n${lines.join('\r\n')}\r\n\r\n${body}`);
  });
}

describe('PDFs over real HTTP (serve on loopback, one kept-alive connection)', () => {
  it('a site report PDF and a dossier arrive byte for byte as cached, with their headers, on a miss and on hits', async () => {
    const got: { kind: string; res: Response; pdf: Buffer }[] = [];
    // Alternating on one connection: a framing mistake in one response would garble the next.
    for (const [kind, call] of [['site', siteReport], ['dossier', dossier], ['site', siteReport], ['dossier', dossier], ['site', siteReport]] as const) {
      const res = await call();
      got.push({ kind, res, pdf: Buffer.from(await res.arrayBuffer()) });
    }
    expect(got.map((g) => [g.kind, g.res.status, g.res.headers.get('x-cache')])).toEqual([
      ['site', 200, 'MISS'],
      ['dossier', 200, 'MISS'],
      ['site', 200, 'HIT'],
      ['dossier', 200, 'HIT'],
      ['site', 200, 'HIT'],
    ]);
    const cached = cachedPdfs();
    expect(cached).toHaveLength(2);
    for (const { kind, res, pdf } of got) {
      expect(cached.some((c) => c.equals(pdf))).toBe(true);
      expect(qpdfCheck(pdf).ok).toBe(true);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      const file = kind === 'site' ? `site-report-${site.lat}_${site.lng}.pdf` : `service-report-${facility.registry_id}.pdf`;
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${file}"`);
      // the headers set before the handler (request id, quota) travel in the same response
      expect(res.headers.get('x-request-id')).toMatch(/^req_/);
      expect(res.headers.get('x-ratelimit-limit')).not.toBeNull();
    }
    const [sitePdf, dossierPdf] = [got[0]!.pdf, got[1]!.pdf];
    expect(pdfText(dossierPdf)).toContain(facility.registry_id);
    expect(pdfText(sitePdf)).toContain('Site report: EPA ECHO facilities around a property');
  });

  it('a PDF up to PLAIN_BODY_MAX carries its Content-Length; a larger one is one chunk, chunked', async () => {
    const d = await dossier();
    const dossierPdf = new Uint8Array(await d.arrayBuffer());
    const s = await siteReport();
    const sitePdf = new Uint8Array(await s.arrayBuffer());
    // the sample's dossier and a site report of its densest part fall on either side of the limit, so both ways are taken
    expect(dossierPdf.length).toBeLessThanOrEqual(PLAIN_BODY_MAX);
    expect(sitePdf.length).toBeGreaterThan(PLAIN_BODY_MAX);
    expect(d.headers.get('content-length')).toBe(String(dossierPdf.length));
    expect(d.headers.get('transfer-encoding')).toBeNull();
    expect(s.headers.get('content-length')).toBeNull();
    expect(s.headers.get('transfer-encoding')).toBe('chunked');
  });

  it('a site report as JSON is one chunk when larger than PLAIN_BODY_MAX and plain when smaller, the same JSON either way', async () => {
    const ask = (distances: Record<string, number>) =>
      // identity: the framing as written (fetch asks for gzip by default)
      fetch(`${server.base}/api/v1/site-report`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json', 'accept-encoding': 'identity' }, body: JSON.stringify({ ...site, search_distances: distances }) });
    const large = await ask({ adjoining: 2 });
    const largeText = await large.text();
    // only the site's own spot: a handful of findings at most
    const small = await ask({ adjoining: 0.001, snc: 0.001, enforcement: 0.001, rcra_tsd: 0.001, rcra_generator: 0.001, tri: 0.001, npdes: 0.001, caa_major: 0.001 });
    const smallText = await small.text();
    expect([large.status, small.status]).toEqual([200, 200]);
    expect(Buffer.byteLength(largeText)).toBeGreaterThan(PLAIN_BODY_MAX);
    expect(Buffer.byteLength(smallText)).toBeLessThanOrEqual(PLAIN_BODY_MAX);
    expect([large.headers.get('transfer-encoding'), large.headers.get('content-length')]).toEqual(['chunked', null]);
    expect([small.headers.get('transfer-encoding'), small.headers.get('content-length')]).toEqual([null, String(Buffer.byteLength(smallText))]);
    for (const r of [large, small]) {
      expect(r.headers.get('content-type')).toBe('application/json;charset=utf-8');
      expect(r.headers.get('x-request-id')).toMatch(/^req_/);
    }
    const report = JSON.parse(largeText) as { data: { findings: { distance_miles: number }[] }; meta: { request_id: string } };
    expect(report.data.findings.length).toBeGreaterThan(40);
    expect(report.data.findings.every((f) => f.distance_miles <= 2)).toBe(true);
    expect(report.meta.request_id).toBe(large.headers.get('x-request-id')!);
  });

  it('an HTTP/1.0 client, which cannot read chunks, gets the site report whole, ended by the close', async () => {
    const expected = Buffer.from(await (await siteReport()).arrayBuffer());
    const { head, body } = await http10('/api/v1/site-report?format=pdf', { 'x-api-key': key, 'content-type': 'application/json' }, siteBody);
    expect(head).toStartWith('HTTP/1.1 200');
    expect(head.toLowerCase()).not.toContain('transfer-encoding');
    expect(head.toLowerCase()).toContain('x-cache: hit');
    expect(body.equals(expected)).toBe(true);
  });

  it('every PDF answered was a committed call: after kill -9 the account has all of them on disk', async () => {
    const before = (JSON.parse(cli(['keys', 'list', '--json', '--state-dir', stateDir]).stdout) as { account_id: string; calls_this_month: number }[]).find((a) => a.account_id === accountId)!;
    const res = [await siteReport(), await dossier()];
    for (const r of res) expect([r.status, (await r.arrayBuffer()).byteLength > 0]).toEqual([200, true]);
    await server.stop('SIGKILL');
    const after = (JSON.parse(cli(['keys', 'list', '--json', '--state-dir', stateDir]).stdout) as { account_id: string; calls_this_month: number }[]).find((a) => a.account_id === accountId)!;
    expect(after.calls_this_month - before.calls_this_month).toBe(2);
  });
});
