import { describe, expect, it } from 'bun:test';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../support/temp-dir';

const ROOT = join(import.meta.dir, '..', '..');
const SUPPORT = join(ROOT, 'test', 'support', 'temp-dir.ts');

/** Runs one small test file under the suite's preload, with TMPDIR in a dir of ours; returns its exit code, output and what it left there. */
function runUnderPreload(body: string, tmp = tempDir('temp-run-tmp')) {
  const work = tempDir('temp-run');
  const file = join(work, 'scratch.test.ts');
  writeFileSync(file, `import { it, expect } from 'bun:test';\nimport { writeFileSync, mkdtempSync } from 'node:fs';\nimport { tmpdir } from 'node:os';\nimport { join } from 'node:path';\nimport { tempDir } from ${JSON.stringify(SUPPORT)};\n${body}\n`);
  const p = Bun.spawnSync([process.execPath, 'test', '--preload', join(ROOT, 'test', 'preload.ts'), file], { cwd: work, env: { ...process.env, TMPDIR: tmp } });
  return { code: p.exitCode, output: p.stdout.toString() + p.stderr.toString(), left: readdirSync(tmp) };
}

describe('a test run keeps its temp files in a directory of its own and leaves nothing behind', () => {
  it('the temp dirs a test makes with tempDir() are gone after the run, and the run passes', () => {
    const r = runUnderPreload(`it('makes scratch space', () => { writeFileSync(join(tempDir('state'), 'x'), 'x'); expect(tmpdir()).toContain('fcs-test-run-'); });`);
    expect(r.output).toContain('1 pass');
    expect(r.code).toBe(0);
    expect(r.left).toEqual([]);
  });

  it('a temp dir a test makes itself and does not remove fails the run, named, and is removed anyway', () => {
    const r = runUnderPreload(`it('leaks', () => { mkdtempSync(join(tmpdir(), 'fcs-ingest-')); expect(1).toBe(1); });`);
    expect(r.code).toBe(1);
    expect(r.output).toContain('the test run left temp files behind');
    expect(r.output).toMatch(/fcs-ingest-\w{6}/);
    expect(r.left).toEqual([]);
  });

  it('a run dir left by a killed run (its process gone) is removed by the next run', () => {
    const tmp = tempDir('temp-run-tmp');
    Bun.spawnSync(['mkdir', '-p', join(tmp, 'fcs-test-run-999999999-abcdef', 'fcs-test-binary-x')]);
    const r = runUnderPreload(`it('runs', () => expect(1).toBe(1));`, tmp);
    expect(r.code).toBe(0);
    expect(r.left).toEqual([]);
  });
});
