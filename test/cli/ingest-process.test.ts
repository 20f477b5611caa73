import { describe, expect, it } from 'bun:test';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exporterLines } from '../../scripts/synth/generator';
import { FacilityIndex } from '../../src/index/facility-index';
import { INGEST_ALLOCATOR_ENV } from '../../src/cli/ingest-process';
import { MAIN } from '../support/process';
import { tempDir } from '../support/temp-dir';

/** A file of `rows` generated exporter rows: a build of it runs long enough to be looked at. */
function bigFile(dir: string, rows: number): string {
  const path = join(dir, 'big.csv');
  writeFileSync(path, [...exporterLines({ seed: 'ingest-process', rows, asOf: '2026-10-31' })].join('\r\n'));
  return path;
}

/** Pids of the processes whose parent is `pid`, with their command lines (from /proc). */
function childrenOf(pid: number): { pid: number; cmdline: string[] }[] {
  const out: { pid: number; cmdline: string[] }[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'latin1');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push({ pid: Number(name), cmdline: readFileSync(`/proc/${name}/cmdline`, 'latin1').split('\0').filter(Boolean) });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

const environOf = (pid: number) => readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0');

/** The ingest child of the command `pid`, once started. */
async function ingestChild(pid: number): Promise<number | null> {
  for (let i = 0; i < 400; i++) {
    const c = childrenOf(pid).find((p) => p.cmdline.includes('ingest'));
    if (c) return c.pid;
    await Bun.sleep(25);
  }
  return null;
}

describe('ingest runs its build in a process started with the allocator setting', () => {
  it('the command starts one child with MIMALLOC_PURGE_HOLES=0 that builds the index; the exit status is the child\'s', async () => {
    const dir = tempDir('ingest-process');
    const out = join(dir, 'index.sqlite');
    const proc = Bun.spawn([process.execPath, MAIN, 'ingest', bigFile(dir, 40_000), '--out', out], { stdout: 'pipe', stderr: 'pipe', env: { ...process.env, MIMALLOC_PURGE_HOLES: undefined } });
    const child = await ingestChild(proc.pid);
    expect(child).not.toBeNull();
    expect(environOf(child!)).toContain(`MIMALLOC_PURGE_HOLES=${INGEST_ALLOCATOR_ENV.MIMALLOC_PURGE_HOLES}`);
    expect(environOf(proc.pid).some((v) => v.startsWith('MIMALLOC_PURGE_HOLES='))).toBe(false);
    expect(await proc.exited).toBe(0);
    // the summary the child printed reaches the command's own stdout
    expect(await new Response(proc.stdout).text()).toContain('ingest: built');
    expect(FacilityIndex.open(out).info.facility_count).toBe(40_000);
  }, 120_000);

  it('a setting the operator gave is kept, and the build runs in the command itself', async () => {
    const dir = tempDir('ingest-process');
    const out = join(dir, 'index.sqlite');
    const proc = Bun.spawn([process.execPath, MAIN, 'ingest', bigFile(dir, 40_000), '--out', out], { stdout: 'ignore', stderr: 'ignore', env: { ...process.env, MIMALLOC_PURGE_HOLES: '1' } });
    // the build's temp file is named by the pid of the process building: the command's own
    const tmp = `${out}.tmp-${proc.pid}`;
    for (let i = 0; i < 600 && !existsSync(tmp); i++) await Bun.sleep(25);
    expect(existsSync(tmp)).toBe(true);
    expect(childrenOf(proc.pid).some((p) => p.cmdline.includes('ingest'))).toBe(false);
    expect(environOf(proc.pid)).toContain('MIMALLOC_PURGE_HOLES=1');
    expect(await proc.exited).toBe(0);
  }, 120_000);

  it('a Ctrl-C (SIGINT to both processes at once) stops the build once: exit 130, one message, no temp file, the old index kept', async () => {
    const dir = tempDir('ingest-process');
    const out = join(dir, 'index.sqlite');
    const small = join(dir, 'small.csv');
    writeFileSync(small, [...exporterLines({ seed: 'ingest-process-old', rows: 10, asOf: '2026-10-31' })].join('\r\n'));
    expect(Bun.spawnSync([process.execPath, MAIN, 'ingest', small, '--out', out]).exitCode).toBe(0);
    const before = readFileSync(out);
    const proc = Bun.spawn([process.execPath, MAIN, 'ingest', bigFile(dir, 150_000), '--out', out], { stdout: 'ignore', stderr: 'pipe', env: { ...process.env, MIMALLOC_PURGE_HOLES: undefined } });
    const child = await ingestChild(proc.pid);
    expect(child).not.toBeNull();
    const building = () => readdirSync(dir).some((f) => f.startsWith('index.sqlite.tmp-'));
    for (let i = 0; i < 600 && !building(); i++) await Bun.sleep(25);
    expect(building()).toBe(true);
    process.kill(child!, 'SIGINT');
    proc.kill('SIGINT');
    expect(await proc.exited).toBe(130);
    const stderr = await new Response(proc.stderr).text();
    expect(stderr.split('ingest: interrupted').length - 1).toBe(1);
    expect(readFileSync(out).equals(before)).toBe(true);
    expect(readdirSync(dir).filter((f) => f.includes('.tmp-'))).toEqual([]);
  }, 120_000);
});
