import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];
let cleanupInstalled = false;

/**
 * A fresh, empty directory under the system temp dir, named `fcs-<name>-XXXXXX`, removed when the
 * test process exits. The one way tests make scratch space (state files, caches, index files).
 */
export function tempDir(name: string): string {
  if (!cleanupInstalled) {
    cleanupInstalled = true;
    process.once('exit', () => {
      for (const dir of made) rmSync(dir, { recursive: true, force: true });
    });
  }
  const dir = mkdtempSync(join(tmpdir(), `fcs-${name}-`));
  made.push(dir);
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
