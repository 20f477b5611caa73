import { constants } from 'node:os';
import { selfCommand } from '../worker-url';

/**
 * The allocator setting an ingest runs with. Bun's native allocator (its mimalloc) hands back not
 * only freed pages but the free blocks inside pages still in use ("holes"); an ingest frees and
 * reallocates the same memory all along, and where a page fault is dear (a VM: ~17 µs here)
 * fetching those blocks again is slow: without hole purging the national ingest took half the page
 * faults and 139 s against 158 s in one adjacent pair (docs/benchmarks.md). mimalloc reads it
 * once, at process start.
 */
export const INGEST_ALLOCATOR_ENV = { MIMALLOC_PURGE_HOLES: '0' } as const;

/** Whether this process already runs with the setting, from the re-run below or from the operator (whose value wins). */
export function allocatorSet(env: Record<string, string | undefined>): boolean {
  return env.MIMALLOC_PURGE_HOLES !== undefined;
}

/** The signals an ingest cleans up on (src/cli/ingest.ts), passed on to the process doing it. */
const FORWARDED = ['SIGINT', 'SIGTERM'] as const;

/**
 * Runs `ingest args` again as a child process with INGEST_ALLOCATOR_ENV, on the same stdin, stdout
 * and stderr, and resolves to its exit status (128 + the signal's number when a signal ended it).
 * SIGINT and SIGTERM are passed on, so a supervisor stopping this process stops the build, which
 * removes its temp files; a Ctrl-C reaches both, and the child's handler runs once either way.
 */
export async function ingestInChild(args: string[], env: Record<string, string | undefined>): Promise<number> {
  const child = Bun.spawn([...selfCommand(), 'ingest', ...args], { env: { ...env, ...INGEST_ALLOCATOR_ENV }, stdin: 'inherit', stdout: 'inherit', stderr: 'inherit' });
  const handlers = FORWARDED.map((signal) => {
    const pass = () => {
      if (child.exitCode === null) child.kill(signal);
    };
    process.on(signal, pass);
    return [signal, pass] as const;
  });
  try {
    const code = await child.exited;
    const signal = child.signalCode;
    return signal ? 128 + (typeof signal === 'number' ? signal : (constants.signals[signal] ?? 0)) : code;
  } finally {
    for (const [signal, pass] of handlers) process.off(signal, pass);
  }
}
