import { fileURLToPath } from 'node:url';

/** True inside a `bun build --compile` executable, whose modules live in its embedded /$bunfs/ tree. */
export const IS_COMPILED_BINARY = import.meta.path.startsWith('/$bunfs/') || import.meta.path.startsWith('B:/~BUN/');

/**
 * URL of a worker module, given its path under src/. In a checkout that is the file itself; in the
 * compiled binary it is bundled at the same path under the executable's root, which only works
 * because scripts/build.ts lists every worker module as an extra entry point.
 */
export function workerUrl(pathUnderSrc: string): URL {
  return new URL(pathUnderSrc, IS_COMPILED_BINARY ? 'file:///$bunfs/root/' : import.meta.url);
}

/** This program started again: the compiled binary itself, or Bun on src/main.ts in a checkout. */
export function selfCommand(): string[] {
  return IS_COMPILED_BINARY ? [process.execPath] : [process.execPath, fileURLToPath(new URL('./main.ts', import.meta.url))];
}
