import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Bun's test runner fires no 'exit' event, so nothing here may rely on one: the run's teardown
// (test/preload.ts, a global afterAll) removes what the files did not.
const made: string[] = [];
const forTheRun: string[] = [];

/**
 * A fresh, empty directory under the run's temp dir, named `fcs-<name>-XXXXXX`, removed by
 * `removeTempDirs()` or at the end of the run. The one way tests make scratch space (state files,
 * caches, index files).
 */
export function tempDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `fcs-${name}-`));
  made.push(dir);
  return dir;
}

/** A temp dir shared by several test files (the compiled binary): `removeTempDirs()` leaves it, the end of the run removes it. */
export function runTempDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `fcs-${name}-`));
  forTheRun.push(dir);
  return dir;
}

/** Removes the temp dirs made so far, for a test file whose dirs are big (binaries, national copies): `afterAll(removeTempDirs)`. */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** `<fresh temp dir>/<file>`: a path for a file that does not exist yet (a state store, an index). */
export function tempPath(name: string, file: string): string {
  return join(tempDir(name), file);
}

const RUN_PREFIX = 'fcs-test-run-';

/** Whether a process with this pid exists (EPERM: it does, under another user). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as { code?: string }).code === 'EPERM';
  }
}

/**
 * Points TMPDIR (read by `tmpdir()` here and inherited by every child process) at a fresh directory
 * of this run, `fcs-test-run-<pid>-XXXXXX`, so runs side by side never see each other's files and
 * whatever a run leaves is found. Run dirs of test processes that died (killed mid-run) are removed.
 */
export function beginTempRun(): string {
  const base = tmpdir();
  for (const name of readdirSync(base)) {
    const pid = Number(new RegExp(`^${RUN_PREFIX}(\\d+)-`).exec(name)?.[1]);
    if (pid && pid !== process.pid && !alive(pid)) rmSync(join(base, name), { recursive: true, force: true });
  }
  const root = mkdtempSync(join(base, `${RUN_PREFIX}${process.pid}-`));
  process.env.TMPDIR = root;
  return root;
}

/**
 * Removes the run's temp dirs, then the run dir; returns what was left in it besides them (files a
 * test or a child process made under TMPDIR and did not remove), which the caller reports as a failure.
 */
export function endTempRun(root: string): string[] {
  removeTempDirs();
  for (const dir of forTheRun.splice(0)) rmSync(dir, { recursive: true, force: true });
  const left = readdirSync(root);
  rmSync(root, { recursive: true, force: true });
  return left;
}
