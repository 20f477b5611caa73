import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Mounts a tmpfs on `dir` (`options` as for mount -o); false where this process may not mount
 * (not root, or a locked-down container). `onUnmount` receives the unmount to run after the test.
 */
export function mountTmpfs(dir: string, options: string, onUnmount: (unmount: () => void) => void): boolean {
  const ok = Bun.spawnSync(['mount', '-t', 'tmpfs', '-o', options, 'tmpfs', dir], { stdout: 'ignore', stderr: 'ignore' }).exitCode === 0;
  if (ok) onUnmount(() => void Bun.spawnSync(['umount', '-l', dir]));
  return ok;
}

/** Fills every block of the file system under `dir`: a file's create then succeeds, its write fails with ENOSPC. */
export function fillToTheBrim(dir: string): void {
  const filler = Buffer.alloc(4096, 1);
  for (let i = 0; ; i++) {
    try {
      writeFileSync(join(dir, `filler-${i}`), filler);
    } catch {
      return;
    }
  }
}
