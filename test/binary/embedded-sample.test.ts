import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { chmodSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { binary, ROOT, run, sampleFacts, startServe, type Server } from './support';
import { removeTempDirs, tempDir } from '../support/temp-dir';

beforeAll(() => void binary(), 120_000);
afterAll(removeTempDirs);

const SAMPLE = readFileSync(join(ROOT, 'data', 'sample.sqlite'));

/** A fresh state dir with a Starter key in it. */
function stateWithKey(): { stateDir: string; key: string } {
  const stateDir = tempDir('bin-run');
  return { stateDir, key: JSON.parse(run(['keys', 'create', '--tier', 'starter', '--json', '--state-dir', stateDir]).stdout).key };
}

/** The files in the copy dir of `stateDir` (src/index/bundled.ts). */
const copies = (stateDir: string) => readdirSync(join(stateDir, 'embedded-sample'));
const copyOf = (stateDir: string) => join(stateDir, 'embedded-sample', copies(stateDir)[0]!);

/** The sample's first facility and an area search around it answer 200 with that facility: the area search first, as a client right after start would. */
async function servesTheSample(server: Server, key: string) {
  const { row, info } = sampleFacts();
  const area = await fetch(`${server.base}/api/v1/area?lat=${row.lat}&lng=${row.lng}&radius_miles=5`, { headers: { 'x-api-key': key } });
  expect(area.status).toBe(200);
  expect(((await area.json()) as any).data.facilities.map((f: { registry_id: string }) => f.registry_id)).toContain(row.registry_id);
  const lookup = await fetch(`${server.base}/api/v1/facility/${row.registry_id}`, { headers: { 'x-api-key': key } });
  expect(lookup.status).toBe(200);
  expect(((await lookup.json()) as any).data).toMatchObject({ registry_id: row.registry_id, fac_street: row.fac_street });
  const status = (await (await fetch(`${server.base}/api/v1/status`)).json()) as any;
  expect(status.data.dataset).toMatchObject({ dataset_name: info.dataset_name, facility_count: info.facility_count });
}

const copiedLine = (server: Server) => server.lines.find((l) => String(l.msg).startsWith('embedded sample copied to'));

describe('the embedded sample is served from a file copy in the state dir (opened in place, not read into memory)', () => {
  it('the first start writes it read-only, byte for byte the sample; the next start opens it as it is', async () => {
    const { stateDir, key } = stateWithKey();
    const first = await startServe(['--state-dir', stateDir]);
    try {
      expect(copiedLine(first)).toBeDefined();
      expect(first.lines.filter((l) => l.level === 'warn')).toEqual([]);
      await servesTheSample(first, key);
    } finally {
      await first.stop();
    }
    expect(copies(stateDir)).toHaveLength(1);
    const copy = copyOf(stateDir);
    expect(Buffer.compare(readFileSync(copy), SAMPLE)).toBe(0);
    expect(statSync(copy).mode & 0o777).toBe(0o444);
    const inode = statSync(copy).ino;
    const second = await startServe(['--state-dir', stateDir]);
    try {
      expect(copiedLine(second)).toBeUndefined();
      await servesTheSample(second, key);
      expect(statSync(copy).ino).toBe(inode);
    } finally {
      await second.stop();
    }
  });

  it('SIGHUP after the copy was deleted writes it again and switches to it, the one it replaces still open until then', async () => {
    const { stateDir, key } = stateWithKey();
    const server = await startServe(['--state-dir', stateDir]);
    try {
      rmSync(copyOf(stateDir));
      server.proc.kill('SIGHUP');
      await server.waitForLine((l) => l.msg === 'index reloaded');
      expect(server.lines.filter((l) => String(l.msg).startsWith('embedded sample copied to'))).toHaveLength(2);
      await servesTheSample(server, key);
      expect(Buffer.compare(readFileSync(copyOf(stateDir)), SAMPLE)).toBe(0);
    } finally {
      await server.stop();
    }
  });

  it('two binaries started at once on a fresh state dir both serve the sample, and one whole copy is left', async () => {
    const { stateDir, key } = stateWithKey();
    const servers = await Promise.all([startServe(['--state-dir', stateDir]), startServe(['--state-dir', stateDir])]);
    try {
      for (const s of servers) await servesTheSample(s, key);
      expect(servers.flatMap((s) => s.lines.filter((l) => l.level === 'warn'))).toEqual([]);
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
    }
    expect(copies(stateDir)).toHaveLength(1);
    expect(Buffer.compare(readFileSync(copyOf(stateDir)), SAMPLE)).toBe(0);
  });

  it.each([
    ['a corrupt copy (same size, bytes in the middle overwritten)', () => Buffer.concat([SAMPLE.subarray(0, 1 << 20), Buffer.alloc(4096, 0x5a), SAMPLE.subarray((1 << 20) + 4096)])],
    ['a truncated copy', () => SAMPLE.subarray(0, SAMPLE.length >> 1)],
  ])('%s is written again at the next start, which serves the sample', async (_what, damaged) => {
    const { stateDir, key } = stateWithKey();
    await (await startServe(['--state-dir', stateDir])).stop();
    const copy = copyOf(stateDir);
    chmodSync(copy, 0o644);
    writeFileSync(copy, damaged());
    const server = await startServe(['--state-dir', stateDir]);
    try {
      expect(copiedLine(server)).toBeDefined();
      await servesTheSample(server, key);
    } finally {
      await server.stop();
    }
    expect(Buffer.compare(readFileSync(copy), SAMPLE)).toBe(0);
  });

  it('a copy dir that cannot be written: one warning, the sample served from memory, and SIGHUP still reloads it', async () => {
    const { stateDir, key } = stateWithKey();
    // A file where the directory should be: refused even to root, unlike permission bits.
    writeFileSync(join(stateDir, 'embedded-sample'), 'in the way');
    const server = await startServe(['--state-dir', stateDir]);
    try {
      const warnings = server.lines.filter((l) => l.level === 'warn');
      expect(warnings).toHaveLength(1);
      expect(warnings[0]!.msg).toStartWith('embedded sample served from memory');
      // the size it names is the embedded sample's, not a figure of an older format
      expect(warnings[0]!.msg).toContain(`(+${Math.round(statSync(join(import.meta.dir, '..', '..', 'data', 'sample.sqlite')).size / 1e6)} MB,`);
      await servesTheSample(server, key);
      server.proc.kill('SIGHUP');
      await server.waitForLine((l) => l.msg === 'index reloaded');
      await servesTheSample(server, key);
    } finally {
      await server.stop();
    }
  });
});
