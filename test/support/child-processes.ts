import { readdirSync, readFileSync } from 'node:fs';

/** State and parent of a process from /proc, or null when there is none. */
function stat(pid: number): { state: string; ppid: number } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ')'
    const [state, ppid] = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: state!, ppid: Number(ppid) };
  } catch {
    return null;
  }
}

/** Pids of the live processes whose parent is `parent` and whose command line contains `word`. */
export function childrenOf(parent: number, word: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (stat(pid)?.ppid !== parent || !isAlive(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(word)) pids.push(pid);
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** Whether `pid` is a running process (a zombie, exited and waiting to be reaped, is not). */
export function isAlive(pid: number): boolean {
  const s = stat(pid);
  return s !== null && s.state !== 'Z' && s.state !== 'X';
}

/** Polls until `find` returns a non-empty list, up to `ms`; returns it (empty when it never came). */
export async function waitFor<T>(find: () => T[], ms: number): Promise<T[]> {
  for (const until = Date.now() + ms; ; await Bun.sleep(20)) {
    const found = find();
    if (found.length > 0 || Date.now() > until) return found;
  }
}

/** Polls until `pid` is no longer running, up to `ms`; returns whether it has stopped. */
export async function waitGone(pid: number, ms: number): Promise<boolean> {
  for (const until = Date.now() + ms; Date.now() < until; await Bun.sleep(20)) if (!isAlive(pid)) return true;
  return !isAlive(pid);
}
