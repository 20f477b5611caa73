/**
 * URL of a worker module, given its path under src/. In a checkout that is the file itself; in the
 * compiled binary it is bundled at the same path under the executable's root, which only works
 * because scripts/build.ts lists every worker module as an extra entry point.
 */
export function workerUrl(pathUnderSrc: string): URL {
  return new URL(pathUnderSrc, import.meta.url.includes('/$bunfs/') ? 'file:///$bunfs/root/' : import.meta.url);
}
