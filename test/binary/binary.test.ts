import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pkg from '../../package.json' with { type: 'json' };
import { ALLOCATOR_ENV } from '../../src/cli/allocator';
import { SCORE_VERSION } from '../../src/scoring/score';
import { binary, ROOT, run, sampleFacts, startServe, TEST_COMMIT, usageOf } from './support';
import { removeTempDirs, tempDir } from '../support/temp-dir';

// One build for the whole run; the first call pays for it (about 10 s, more on a loaded machine).
beforeAll(() => void binary(), 120_000);
afterAll(removeTempDirs);

const JWT_SECRET = 'binary-test-hs256-secret-0123456789abcdef';

describe('the compiled binary (dist/facility-score)', () => {
  it('--version prints the version, the commit defined at build, the score method and the embedded dataset as-of date', () => {
    const { info } = sampleFacts();
    const r = run(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`facility-score ${pkg.version} (commit ${TEST_COMMIT})`);
    expect(r.stdout).toContain(`score method ${SCORE_VERSION}`);
    expect(r.stdout).toContain(`as of ${info.as_of}, ${info.facility_count} facilities (FICTITIOUS SAMPLE)`);
  });

  it('serves the embedded sample from a directory holding nothing but its state, its worker threads included', async () => {
    const { info } = sampleFacts();
    const server = await startServe(['--state-dir', tempDir('bin-run')]);
    try {
      // The state file's checkpoint worker is bundled as an extra entry point; without it serve warns.
      expect(server.lines.filter((l) => l.level === 'warn')).toEqual([]);
      // started again by itself, as the same process, with its allocator setting (src/cli/allocator.ts)
      const environ = readFileSync(`/proc/${server.proc.pid}/environ`, 'latin1').split('\0');
      expect(environ).toContain(`MIMALLOC_PURGE_DELAY=${ALLOCATOR_ENV.serve.MIMALLOC_PURGE_DELAY}`);
      expect(readFileSync(`/proc/${server.proc.pid}/cmdline`, 'latin1').split('\0')[0]).toBe(binary());
      const status = (await (await fetch(`${server.base}/api/v1/status`)).json()) as any;
      expect(status.data.dataset).toMatchObject({ dataset_name: info.dataset_name, as_of: info.as_of, facility_count: info.facility_count, fictitious: true });
    } finally {
      server.proc.kill('SIGKILL');
    }
  });

  it("carries the sample's area index: the first area search after start answers 200, no build waited for", async () => {
    const stateDir = tempDir('bin-run');
    const { key } = JSON.parse(run(['keys', 'create', '--tier', 'starter', '--json', '--state-dir', stateDir]).stdout);
    const { row } = sampleFacts();
    const server = await startServe(['--state-dir', stateDir]);
    try {
      // The very first request, sent as soon as the server listens: a build on a worker would answer 503 here.
      const first = await fetch(`${server.base}/api/v1/area?lat=${row.lat}&lng=${row.lng}&radius_miles=5`, { headers: { 'x-api-key': key } });
      expect(first.status).toBe(200);
      expect(((await first.json()) as any).data.facilities.map((f: { registry_id: string }) => f.registry_id)).toContain(row.registry_id);
      expect((await fetch(`${server.base}/readyz`)).status).toBe(200);
      expect(server.lines.some((l) => String(l.msg).startsWith('area spatial index ready') && String(l.msg).includes('embedded'))).toBe(true);
      expect(server.lines.some((l) => String(l.msg).includes('worker thread'))).toBe(false);
    } finally {
      server.proc.kill('SIGKILL');
    }
  });

  it('answers every documented endpoint over real HTTP, exits 0 on SIGTERM, and the counted calls survive a restart', async () => {
    const stateDir = tempDir('bin-run');
    const env = { FCS_JWT_SECRET: JWT_SECRET, FCS_WEBHOOK_ALLOW: '127.0.0.1/32' };
    const created = run(['keys', 'create', '--tier', 'enterprise', '--json', '--state-dir', stateDir]);
    expect(created.code).toBe(0);
    const { key, account_id } = JSON.parse(created.stdout);
    const jwt = run(['keys', 'token', '--subject', 'ops-test-user'], env).stdout.trim();
    const { row } = sampleFacts();
    const id = row.registry_id as string;
    const withKey = { 'x-api-key': key };
    const bearer = { authorization: `Bearer ${jwt}` };
    const address = encodeURIComponent(`${row.fac_street}, ${row.fac_city}, ${row.fac_state} ${row.fac_zip}`);

    const server = await startServe(['--state-dir', stateDir], env);
    const get = (path: string, headers: Record<string, string> = {}) => fetch(`${server.base}${path}`, { headers });
    const post = (path: string, headers: Record<string, string> = {}, body?: unknown) =>
      fetch(`${server.base}${path}`, { method: 'POST', headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
    const send = (method: string, path: string, body?: unknown) =>
      fetch(`${server.base}${path}`, { method, headers: { ...withKey, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
    // Wait for /readyz, as a load balancer would, before calling every endpoint (the embedded
    // sample's area index is ready at start: the test above).
    for (let i = 0; i < 600 && (await get('/readyz')).status !== 200; i++) await Bun.sleep(100);
    // The watchlist made first is used by the watchlist calls after it, and deleted last.
    let wl = '';
    const watchlist = () => `/api/v1/watchlists/${wl}`;
    // One call per documented operation, keyed as in the OpenAPI document: a new endpoint fails this test until it is added here.
    const calls: Record<string, () => Promise<Response>> = {
      'get /healthz': () => get('/healthz'),
      'get /readyz': () => get('/readyz'),
      'get /metrics': () => get('/metrics'),
      'get /api/v1/status': () => get('/api/v1/status'),
      'get /api/v1/facility/{registry_id}': () => get(`/api/v1/facility/${id}`, withKey),
      'get /api/v1/facility/{registry_id}/history': () => get(`/api/v1/facility/${id}/history`, withKey),
      'get /api/v1/area': () => get(`/api/v1/area?lat=${row.lat}&lng=${row.lng}&radius_miles=5`, withKey),
      // a city's centre comes from the bundled ZIP table: the binary must carry it
      'get /api/v1/area/place': () => get(`/api/v1/area/place?q=${encodeURIComponent('Houston, TX')}`, withKey),
      'get /api/v1/search': () => get(`/api/v1/search?q=${encodeURIComponent(row.fac_city)}&format=csv`, withKey),
      'post /api/v1/portfolio': () => post('/api/v1/portfolio', withKey, { registry_ids: [id, '990000000000'] }),
      'post /api/v1/facility/{registry_id}/report': () => post(`/api/v1/facility/${id}/report`, withKey),
      // the PDF form of an address placed at its ZIP's centre: the compiled binary must carry the lazily imported renderer and the ZIP table
      'post /api/v1/site-report': () => post('/api/v1/site-report?format=pdf', withKey, { address: '1 Nowhere Lane, Houston, TX 77002' }),
      'get /api/v1/demo/facility': () => get(`/api/v1/demo/facility?address=${address}`),
      'get /api/v1/demo/examples': () => get('/api/v1/demo/examples'),
      'get /api/v1/plan': () => get('/api/v1/plan', withKey),
      'post /api/v1/account/key': () => post('/api/v1/account/key', bearer),
      'post /api/v1/account/key/regenerate': () => post('/api/v1/account/key/regenerate', bearer),
      'get /api/v1/account': () => get('/api/v1/account', bearer),
      'post /api/v1/watchlists': async () => {
        const res = await post('/api/v1/watchlists', withKey, { name: 'binary', registry_ids: [id], webhook_url: 'http://127.0.0.1:9/hook' });
        wl = ((await res.clone().json()) as { data: { id: string } }).data.id;
        return res;
      },
      'get /api/v1/watchlists': () => get('/api/v1/watchlists', withKey),
      'get /api/v1/watchlists/{id}': () => get(watchlist(), withKey),
      'get /api/v1/watchlists/{id}/registry_ids': () => get(`${watchlist()}/registry_ids?limit=10`, withKey),
      'get /api/v1/watchlists/{id}/facilities': () => get(`${watchlist()}/facilities?limit=10`, withKey),
      'patch /api/v1/watchlists/{id}': () => send('PATCH', watchlist(), { rule: { type: 'enforcement_started' } }),
      'get /api/v1/watchlists/{id}/changes': () => get(`${watchlist()}/changes`, withKey),
      'get /api/v1/watchlists/{id}/deliveries': () => get(`${watchlist()}/deliveries`, withKey),
      'post /api/v1/watchlists/{id}/secret': () => post(`${watchlist()}/secret`, withKey),
      // The embedded sample is one release, so no event exists to redeliver: the route answers 404.
      'post /api/v1/watchlists/{id}/deliveries/{event_id}/redeliver': () => post(`${watchlist()}/deliveries/msg_${'0'.repeat(32)}/redeliver`, withKey),
      'delete /api/v1/watchlists/{id}': () => send('DELETE', watchlist()),
    };
    const STATUS: Record<string, number> = { 'post /api/v1/account/key': 201, 'post /api/v1/watchlists': 201, 'post /api/v1/watchlists/{id}/deliveries/{event_id}/redeliver': 404 };
    try {
      const doc = (await (await get('/swagger/json')).json()) as { paths: Record<string, Record<string, unknown>> };
      const documented = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`));
      expect(documented.sort()).toEqual(Object.keys(calls).sort());

      const statuses: Record<string, number> = {};
      for (const [op, call] of Object.entries(calls)) {
        const res = await call();
        statuses[op] = res.status;
        if (op.includes('/report') || op.includes('/site-report')) expect(new TextDecoder().decode((await res.arrayBuffer()).slice(0, 5))).toBe('%PDF-');
        else await res.arrayBuffer();
      }
      const expected = Object.fromEntries(Object.keys(calls).map((op) => [op, STATUS[op] ?? 200]));
      expect(statuses).toEqual(expected);
      expect((await get('/swagger')).status).toBe(200);

      const counted = usageOf(stateDir, account_id);
      // Lookup and area count one call each; portfolio and report may count too (docs/api.md).
      expect(counted).toBeGreaterThanOrEqual(2);

      server.proc.kill('SIGTERM');
      expect(await server.proc.exited).toBe(0);
      expect(server.lines.some((l) => l.msg === 'stopped' && l.clean === true)).toBe(true);
      // The access log named routes and tiers, never the key.
      expect(server.lines.some((l) => l.msg === 'request' && l.route === '/api/v1/area' && l.tier === 'enterprise' && l.status === 200)).toBe(true);
      expect(JSON.stringify(server.lines)).not.toContain(key);
      expect(usageOf(stateDir, account_id)).toBe(counted);

      const again = await startServe(['--state-dir', stateDir], env);
      const res = await fetch(`${again.base}/api/v1/facility/${id}`, { headers: withKey });
      expect(res.status).toBe(200);
      again.proc.kill('SIGTERM');
      expect(await again.proc.exited).toBe(0);
      expect(usageOf(stateDir, account_id)).toBe(counted + 1);
    } finally {
      server.proc.kill('SIGKILL');
    }
  });

  it('runs `ingest` too: an index built by the binary is served by the binary', async () => {
    const dir = tempDir('bin-run');
    const csv = join(dir, 'ECHO_EXPORTER.csv');
    const lines = new TextDecoder().decode(Bun.gunzipSync(readFileSync(join(ROOT, 'data', 'sample-echo-exporter.csv.gz')))).split('\n');
    writeFileSync(csv, `${lines.slice(0, 201).join('\n')}\n`);
    const out = join(dir, 'small.sqlite');
    const r = run(['ingest', csv, '--out', out, '--as-of', '2026-09-30', '--dataset-name', 'binary ingest test', '--threads', '2', '--search-file', 'separate']);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    // --threads 2 forces the parse/score worker: an extra entry point of the build, without which ingest falls back to one thread.
    expect(r.stdout).toContain('2 threads');
    // The area file is laid out by the binary started again on itself (a hidden subcommand), and serve uses it in place.
    expect(r.stdout).toContain(`beside it ${out}.area`);
    // --search-file separate: the search tables' thread is another entry point of the build (without it they go in the index).
    expect(r.stdout).toContain(`beside it ${out}.search`);
    expect(r.stdout).toContain('in the search file beside the index, built during the load');
    const stateDir = tempDir('bin-run');
    const { key } = JSON.parse(run(['keys', 'create', '--tier', 'starter', '--json', '--state-dir', stateDir]).stdout);
    const server = await startServe(['--index', out, '--state-dir', stateDir]);
    try {
      expect(server.lines.some((l) => String(l.msg).startsWith('area spatial index ready') && String(l.msg).includes(`from ${out}.area`))).toBe(true);
      const name = lines[1]!.split(',')[1]!.replace(/"/g, '');
      const found = (await (await fetch(`${server.base}/api/v1/search?q=${encodeURIComponent(name)}`, { headers: { 'x-api-key': key } })).json()) as any;
      expect(found.data.facilities.map((f: { fac_name: string }) => f.fac_name)).toContain(name);
      const status = (await (await fetch(`${server.base}/api/v1/status`)).json()) as any;
      expect(status.data.dataset).toMatchObject({ dataset_name: 'binary ingest test', as_of: '2026-09-30', fictitious: true });
      expect(status.data.dataset.facility_count).toBeGreaterThan(150);
      expect(status.data.dataset.facility_count).toBeLessThanOrEqual(200);
    } finally {
      server.proc.kill('SIGKILL');
    }
  });

  it('kill -9 right after a 200 loses no counted call', async () => {
    const stateDir = tempDir('bin-run');
    const { key, account_id } = JSON.parse(run(['keys', 'create', '--tier', 'starter', '--json', '--state-dir', stateDir]).stdout);
    const { row } = sampleFacts();
    const server = await startServe(['--state-dir', stateDir]);
    let ok = 0;
    for (let i = 0; i < 5; i++) if ((await fetch(`${server.base}/api/v1/facility/${row.registry_id}`, { headers: { 'x-api-key': key } })).status === 200) ok++;
    server.proc.kill('SIGKILL');
    expect(await server.proc.exited).not.toBe(0);
    expect(ok).toBe(5);
    expect(usageOf(stateDir, account_id)).toBe(5);
  });
});

describe('serve --index PATH refuses a bad index at start, in one line', () => {
  const dir = tempDir('bad-index');
  const text = join(dir, 'notes.txt');
  writeFileSync(text, 'this is not an index\n'.repeat(200));
  const truncated = join(dir, 'truncated.sqlite');
  const whole = readFileSync(join(ROOT, 'data', 'sample.sqlite'));
  writeFileSync(truncated, whole.subarray(0, Math.floor(whole.length / 2)));
  const empty = join(dir, 'empty.sqlite');
  writeFileSync(empty, '');

  it.each([
    ['a path that does not exist', join(dir, 'missing.sqlite'), 'index file not found'],
    ['a text file', text, 'not a facility index'],
    ['a truncated SQLite index', truncated, 'not a facility index'],
    ['an empty file', empty, 'not a facility index'],
  ])('%s: exit 1, one line on stderr, nothing served', (_what, path, message) => {
    const started = performance.now();
    const r = run(['serve', '--index', path, '--port', '0', '--host', '127.0.0.1', '--state-dir', tempDir('bin-run')]);
    expect(r.code).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(message);
    expect(r.stdout).not.toContain('listening');
    expect(performance.now() - started).toBeLessThan(15_000);
  });

  it('a good external index is served instead of the embedded one', async () => {
    const copy = join(tempDir('bin-run'), 'national-copy.sqlite');
    copyFileSync(join(ROOT, 'data', 'sample.sqlite'), copy);
    // The release is the index and its area index beside it: with both, /readyz is 200 at once.
    copyFileSync(join(ROOT, 'data', 'sample.sqlite.area'), `${copy}.area`);
    const server = await startServe(['--index', copy, '--state-dir', tempDir('bin-run')]);
    try {
      expect(server.lines.find((l) => String(l.msg).startsWith('listening'))).toMatchObject({ index: copy });
      expect((await fetch(`${server.base}/readyz`)).status).toBe(200);
    } finally {
      server.proc.kill('SIGKILL');
    }
  });
});
