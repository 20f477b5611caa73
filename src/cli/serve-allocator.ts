import { selfCommand } from '../worker-url';

/**
 * The allocator setting `serve` runs with: Bun's native allocator (its mimalloc) keeps the memory
 * a request freed for the next ones instead of handing it back to the OS. A site report's answer
 * is ~400 KB of memory used once; handed back, the next answer faults the same amount in again,
 * and where a page fault is dear (a VM: ~17 µs here) that was a quarter of a dense report's server
 * time. Peak RSS is unchanged; what a burst took is kept after it (docs/operations.md, figures in
 * docs/benchmarks.md). mimalloc reads it once, at process start.
 */
export const SERVE_ALLOCATOR_ENV = { MIMALLOC_PURGE_DELAY: '-1' } as const;

/**
 * The environment to start `args` again with, or null when it runs as it is: a command other than
 * `serve`, a help request, or an operator who set MIMALLOC_PURGE_DELAY (their value wins).
 */
export function serveAllocatorEnv(args: readonly string[], env: Record<string, string | undefined>): Record<string, string> | null {
  if (args[0] !== 'serve' || args.includes('--help') || args.includes('-h')) return null;
  if (env.MIMALLOC_PURGE_DELAY !== undefined) return null;
  const next: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) next[k] = v;
  return { ...next, ...SERVE_ALLOCATOR_ENV };
}

/**
 * Replaces this process, before anything is opened, with the same program and arguments under
 * SERVE_ALLOCATOR_ENV when serveAllocatorEnv says so: the same PID, stdin, stdout and stderr, so a
 * supervisor's signals reach the server. Returns when there is nothing to do, or when the system
 * refuses the exec (the server then runs with the allocator's default: slower, not wrong).
 */
export function restartWithAllocator(args: readonly string[], env: Record<string, string | undefined>): void {
  const next = serveAllocatorEnv(args, env);
  if (next === null || typeof process.execve !== 'function') return;
  const self = selfCommand();
  try {
    process.execve(self[0]!, [...self, ...args], next);
  } catch {
    // not fatal: the default setting serves the same answers
  }
}
