import { afterAll, describe, expect, it } from 'bun:test';
import { Database } from 'bun:sqlite';
import { closeSync, mkdirSync, openSync, readdirSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { SAMPLE } from '../../scripts/sample';
import { cli, MAIN, ROOT, spawnService, type Service } from '../support/process';
import { tempDir } from '../support/temp-dir';

/**
 * The state dir on a real small disk: `serve` runs in a mount namespace of its own (unshare, no root
 * needed) with a tmpfs mounted on its state dir, seeded with a state file holding two tenants' keys.
 * Tenant A asks for many different PDF dossiers (each one a new report cache file); tenant B looks
 * facilities up, each lookup a counted call the state store must write.
 */
const services: Service[] = [];
afterAll(async () => {
  for (const s of services) await s.stop();
});

const IDS = new Database(SAMPLE.index, { readonly: true }).query<{ registry_id: string }, []>('SELECT registry_id FROM facility ORDER BY registry_id LIMIT 2000').all().map((r) => r.registry_id);

async function smallDiskService(diskSize: string, env: Record<string, string> = {}) {
  const seed = tempDir('full-disk-seed');
  const key = (name: string) => cli(['keys', 'create', '--tier', 'platform', '--name', name, '--print-key', '--state-dir', seed]).stdout.trim();
  const keys = { a: key('Tenant A'), b: key('Tenant B') };
  const disk = join(tempDir('full-disk'), 'state');
  mkdirSync(disk);
  const script = `mount -t tmpfs -o size=${diskSize} tmpfs "$DISK" && cp "$SEED/state.sqlite" "$DISK/" && exec "$@"`;
  const s = await spawnService(['unshare', '--user', '--map-root-user', '--mount', 'sh', '-c', script, 'sh', process.execPath, MAIN, 'serve', '--port', '0', '--host', '127.0.0.1', '--state-dir', disk], {
    env: { ...process.env, FCS_LOG_REQUESTS: '0', DISK: disk, SEED: seed, ...env },
    cwd: ROOT,
  });
  services.push(s);
  // The mount is private to the server's namespace; its files are reached through the process's root.
  const onDisk = (...parts: string[]) => join(`/proc/${s.proc.pid}/root`, disk, ...parts);
  const get = (path: string, apiKey?: string) => fetch(`${s.base}${path}`, { headers: apiKey ? { 'x-api-key': apiKey } : {} });
  const post = (path: string, apiKey: string) => fetch(`${s.base}${path}`, { method: 'POST', headers: { 'x-api-key': apiKey } });
  return { s, keys, onDisk, get, post };
}

/**
 * Tenant A's dossiers, one after another (`count` of them, or until `full` says the disk is full):
 * how many came back 200 and their X-Cache values.
 */
async function manyDossiers(post: (path: string, key: string) => Promise<Response>, key: string, count: number, full?: (caches: string[], statuses: number[]) => boolean) {
  const caches: string[] = [];
  const statuses: number[] = [];
  let ok = 0;
  for (const id of IDS.slice(0, count)) {
    const r = await post(`/api/v1/facility/${id}/report`, key);
    await r.arrayBuffer();
    if (r.status === 200) ok++;
    statuses.push(r.status);
    caches.push(r.headers.get('x-cache') ?? '');
    if (full?.(caches, statuses)) break;
  }
  return { ok, caches, statuses };
}

/** Writes `path` until the disk holds no more, in ever smaller pieces down to a byte. */
function fillUp(path: string): void {
  const fd = openSync(path, 'a');
  try {
    for (let size = 1 << 16; size >= 1; size >>= 1) {
      const piece = new Uint8Array(size);
      for (;;) {
        try {
          writeSync(fd, piece);
        } catch {
          break;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
}

/** The cache stored dossiers, then could store no more: the last few were not stored (BYPASS) or not counted (503). */
const cacheFilledTheDisk = (caches: string[], statuses: number[]) =>
  caches.includes('MISS') && statuses.length >= 5 && statuses.slice(-5).every((s, i) => s === 503 || caches[caches.length - 5 + i] === 'BYPASS');

async function lookups(get: (path: string, key?: string) => Promise<Response>, key: string, n: number, from = 0) {
  const answers: Response[] = [];
  for (let i = from; i < from + n; i++) answers.push(await get(`/api/v1/facility/${IDS[i % IDS.length]}`, key));
  return Promise.all(answers.map(async (r) => ({ status: r.status, retryAfter: r.headers.get('retry-after'), remaining: r.headers.get('x-ratelimit-remaining'), body: (await r.json()) as any })));
}

describe('a state dir on a small disk', () => {
  it("with the default free-space floor, one tenant's many PDFs are served uncached (X-Cache: BYPASS) and never stop another tenant's counted lookups", async () => {
    const { keys, get, post } = await smallDiskService('2m');
    const a = await manyDossiers(post, keys.a, 400);
    expect(a.ok).toBe(400);
    expect(new Set(a.caches)).toEqual(new Set(['BYPASS']));
    const b = await lookups(get, keys.b, 30);
    expect(b.map((r) => r.status)).toEqual(Array(30).fill(200));
    expect((await get('/readyz')).status).toBe(200);
  }, 120_000);

  it('with no floor the cache fills the disk: lookups the store cannot record answer 503 with Retry-After and count nothing, /readyz says so, and both recover once space is freed', async () => {
    const { keys, get, post, onDisk } = await smallDiskService('2m', { FCS_REPORT_CACHE_MIN_FREE_MB: '0', FCS_REPORT_CACHE_MEMORY_MB: '0' });
    const before = await lookups(get, keys.b, 1);
    expect(before[0]!.status).toBe(200);
    const remainingBefore = Number(before[0]!.remaining);
    // rendered until the disk is full, however small the dossiers of this build are
    const a = await manyDossiers(post, keys.a, IDS.length, cacheFilledTheDisk);
    expect(cacheFilledTheDisk(a.caches, a.statuses)).toBe(true);
    // the disk is full: those of tenant A's own calls the store cannot record are 503, never 500
    for (const status of a.statuses) expect([200, 503]).toContain(status);

    // A dossier no longer fits, but a few small pages still may: the rest of the disk is filled too.
    fillUp(onDisk('filler'));
    // A commit that still fits in the WAL's reused space succeeds (and is counted); every other is a 503.
    // Asked until the WAL's reusable space is spent: the first refusal, then five more.
    const b: Awaited<ReturnType<typeof lookups>> = [];
    while (b.length < 600 && b.filter((r) => r.status !== 200).length < 6) b.push(...(await lookups(get, keys.b, 1, b.length)));
    const refused = b.filter((r) => r.status !== 200);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) {
      expect(r.status).toBe(503);
      expect(r.retryAfter).toMatch(/^\d+$/);
      expect(r.body.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503 });
      expect(r.body.error.message).not.toContain('SQLITE');
    }
    const ready = await get('/readyz');
    expect(ready.status).toBe(503);
    expect(ready.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await ready.json()) as any).error.message).toContain('state store not writable');

    for (const name of readdirSync(onDisk('report-cache'))) rmSync(onDisk('report-cache', name));
    rmSync(onDisk('filler'));
    const readyAgain = Date.now();
    while ((await get('/readyz')).status !== 200) {
      expect(Date.now() - readyAgain).toBeLessThan(15_000);
      await Bun.sleep(250);
    }
    const after = await lookups(get, keys.b, 1);
    expect(after[0]!.status).toBe(200);
    // the 200s were counted, none of the 503s
    expect(Number(after[0]!.remaining)).toBe(remainingBefore - (b.length - refused.length) - 1);
  }, 120_000);
});
