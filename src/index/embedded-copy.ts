import { chmodSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** xxHash3 of `bytes`, 16 hex digits: how an embedded file and its copy on disk are compared (fast enough for every open). */
export function contentHash(bytes: Uint8Array): string {
  return Bun.hash.xxHash3(bytes).toString(16).padStart(16, '0');
}

/** True when `path` is a file whose content hashes to `hash`. */
function holds(path: string, hash: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    return contentHash(contentOf(path)) === hash;
  } catch {
    return false; // missing, unreadable, or empty (an empty file cannot be mapped)
  }
}

/**
 * The file's bytes through a map, so nothing is copied into the heap. Bun.mmap opens read-write,
 * which a non-root service user (the container's uid 65532, the systemd unit's user) may not do to
 * its own 0444 copy, though root may: then the bytes are read, once per open. Without this such a
 * user found every copy "not matching" and served the sample from memory.
 */
function contentOf(path: string): Uint8Array {
  try {
    return Bun.mmap(path, { shared: false });
  } catch (e) {
    if (!['EACCES', 'EPERM', 'EROFS'].includes((e as { code?: string }).code ?? '')) throw e;
    return readFileSync(path);
  }
}

// A temp file this old is a crashed writer's, never one still being written (a copy takes milliseconds).
const STALE_TEMP_MS = 10 * 60_000;

/** Removes copies of other builds' files named `<name>-*` in `dir`, and crashed writers' temp files of this one. */
function removeLeftovers(dir: string, name: string, keep: string): void {
  for (const entry of readdirSync(dir)) {
    if (!entry.startsWith(`${name}-`) || entry === keep) continue;
    const path = join(dir, entry);
    try {
      // A running older binary may still serve its copy: unlinking leaves its open file intact.
      if (!entry.startsWith(keep) || Date.now() - statSync(path).mtimeMs > STALE_TEMP_MS) rmSync(path, { force: true });
    } catch {
      // gone already (another start cleaning up): nothing to do
    }
  }
}

/**
 * A file in `dir` holding exactly the embedded file `source` (a `/$bunfs/` path of the compiled
 * binary), whose content hashes to `hash` (computed at build time): `<dir>/<name>-<hash><ext>`.
 * Used as it is when it is there and whole; otherwise (missing, truncated, corrupt) written anew to
 * a temp file of this process, checked, then renamed over the name, so a start running at the same
 * time, or a crash mid-write, never sees a partial file under that name. `written` says whether
 * this call wrote it. Throws when `dir` cannot be created or written (read-only file system, no
 * permission, disk full): the caller then keeps the file in memory instead.
 */
export async function embeddedCopy(source: string, hash: string, dir: string, name: string, ext: string): Promise<{ path: string; written: boolean }> {
  const file = `${name}-${hash}${ext}`;
  const path = join(dir, file);
  if (holds(path, hash)) return { path, written: false };
  mkdirSync(dir, { recursive: true });
  const temp = `${path}.tmp-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
  try {
    await Bun.write(temp, Bun.file(source));
    // Nothing of ours ever writes it again; read-only so nothing else does by mistake.
    chmodSync(temp, 0o444);
    if (!holds(temp, hash)) throw new Error(`the copy written to ${temp} does not match the embedded file`);
    renameSync(temp, path);
  } finally {
    rmSync(temp, { force: true });
  }
  removeLeftovers(dir, name, file);
  return { path, written: true };
}
