import { selfCommand } from '../worker-url';

/**
 * The allocator setting each long-running command runs with. Bun's native allocator (its mimalloc)
 * hands memory back to the OS as it is freed; both commands free and reuse the same memory all
 * along, and where a page fault is dear (a VM: docs/benchmarks.md, The machine) fetching it again was
 * a large share of their time. mimalloc reads these once, at process start.
 */
export const ALLOCATOR_ENV = {
  // Freed memory is kept for the next requests: a site report's large answer is memory used once,
  // faulted in again for every answer when handed back (docs/benchmarks.md, Site report).
  // Peak RSS is unchanged; what a burst took is kept after it (docs/operations.md).
  serve: { MIMALLOC_PURGE_DELAY: '-1' },
  // Free blocks inside pages still in use ("holes") are kept: fewer page faults, a faster national
  // ingest; handing nothing back at all was as fast with more RSS (docs/benchmarks.md, Ingest).
  ingest: { MIMALLOC_PURGE_HOLES: '0' },
} as const;

/**
 * The environment to start `args` again with, or null when it runs as it is: a command without a
 * setting, a help request, or an operator who set the command's variable (their value wins).
 */
export function allocatorEnv(args: readonly string[], env: Record<string, string | undefined>): Record<string, string> | null {
  const command = args[0];
  if (command !== 'serve' && command !== 'ingest') return null;
  if (args.includes('--help') || args.includes('-h')) return null;
  const setting = ALLOCATOR_ENV[command];
  if (Object.keys(setting).some((k) => env[k] !== undefined)) return null;
  const next: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) next[k] = v;
  return { ...next, ...setting };
}

/**
 * Replaces this process, before anything is opened, with the same program and arguments under the
 * command's setting when allocatorEnv says so: the same PID, stdin, stdout and stderr, so a
 * supervisor's or a terminal's signals reach the process doing the work, and a build's temp files
 * are named by that PID. Returns when there is nothing to do, or when the system refuses the exec
 * (the command then runs with the allocator's default: slower, not wrong).
 */
export function restartWithAllocator(args: readonly string[], env: Record<string, string | undefined>): void {
  const next = allocatorEnv(args, env);
  if (next === null || typeof process.execve !== 'function') return;
  const self = selfCommand();
  try {
    process.execve(self[0]!, [...self, ...args], next);
  } catch {
    // not fatal: the default setting gives the same results
  }
}
