import { describe, expect, it } from 'bun:test';
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { contentHash, embeddedCopy } from '../../src/index/embedded-copy';
import { tempDir } from '../support/temp-dir';

/** A source file standing in for the binary's embedded one (Bun.file reads both the same way), and its hash. */
function source(bytes = 300_000): { path: string; content: Uint8Array; hash: string } {
  const content = new Uint8Array(bytes).map((_, i) => (i * 7919) % 251);
  const path = join(tempDir('embedded-src'), 'sample.sqlite');
  writeFileSync(path, content);
  return { path, content, hash: contentHash(content) };
}

const sameBytes = (path: string, content: Uint8Array) => Buffer.compare(readFileSync(path), content) === 0;

describe('embeddedCopy: the file copy of an embedded file, named by its hash', () => {
  it('writes the copy once, read-only, and the next call uses it as it is', async () => {
    const src = source();
    const dir = join(tempDir('embedded-copy'), 'not-yet-made');
    const first = await embeddedCopy(src.path, src.hash, dir, 'sample', '.sqlite');
    expect(first).toEqual({ path: join(dir, `sample-${src.hash}.sqlite`), written: true });
    expect(sameBytes(first.path, src.content)).toBe(true);
    expect(statSync(first.path).mode & 0o777).toBe(0o444);
    const inode = statSync(first.path).ino;
    const second = await embeddedCopy(src.path, src.hash, dir, 'sample', '.sqlite');
    expect(second).toEqual({ path: first.path, written: false });
    expect(statSync(first.path).ino).toBe(inode);
    expect(readdirSync(dir)).toEqual([`sample-${src.hash}.sqlite`]);
  });

  it.each([
    ['a corrupt copy (same size, one byte changed)', (c: Uint8Array) => c.map((b, i) => (i === 150_001 ? b ^ 0xff : b))],
    ['a truncated copy', (c: Uint8Array) => c.subarray(0, 4096)],
    ['an empty copy', () => new Uint8Array(0)],
  ])('%s is written again from the embedded file', async (_what, damage) => {
    const src = source();
    const dir = tempDir('embedded-copy');
    const { path } = await embeddedCopy(src.path, src.hash, dir, 'sample', '.sqlite');
    chmodSync(path, 0o644);
    writeFileSync(path, damage(src.content));
    expect(await embeddedCopy(src.path, src.hash, dir, 'sample', '.sqlite')).toEqual({ path, written: true });
    expect(sameBytes(path, src.content)).toBe(true);
  });

  it('a source that does not hash to the given hash is refused, and nothing is left under the name', async () => {
    const src = source();
    const dir = tempDir('embedded-copy');
    await expect(embeddedCopy(src.path, '0123456789abcdef', dir, 'sample', '.sqlite')).rejects.toThrow('does not match the embedded file');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('throws when the directory cannot be made (a file stands in its place), so the caller keeps the file in memory', async () => {
    const src = source();
    const blocker = join(tempDir('embedded-copy'), 'embedded-sample');
    writeFileSync(blocker, 'not a directory');
    await expect(embeddedCopy(src.path, src.hash, blocker, 'sample', '.sqlite')).rejects.toThrow();
    expect(readFileSync(blocker, 'utf8')).toBe('not a directory');
  });

  it('two writers at once both get a whole copy, and one file is left', async () => {
    const src = source(2_000_000);
    const dir = tempDir('embedded-copy');
    const [a, b] = await Promise.all([embeddedCopy(src.path, src.hash, dir, 'sample', '.sqlite'), embeddedCopy(src.path, src.hash, dir, 'sample', '.sqlite')]);
    expect(a.path).toBe(b.path);
    expect(sameBytes(a.path, src.content)).toBe(true);
    expect(readdirSync(dir)).toEqual([`sample-${src.hash}.sqlite`]);
  });

  it("writing a new build's copy removes older builds' copies and stale temp files, not a temp file being written now", async () => {
    const src = source();
    const dir = tempDir('embedded-copy');
    const old = join(dir, 'sample-00000000000000aa.sqlite');
    const staleTemp = join(dir, `sample-${src.hash}.sqlite.tmp-1-stale`);
    const freshTemp = join(dir, `sample-${src.hash}.sqlite.tmp-2-fresh`);
    const unrelated = join(dir, 'state.sqlite');
    for (const f of [old, staleTemp, freshTemp, unrelated]) writeFileSync(f, 'x');
    const hourAgo = (Date.now() - 3_600_000) / 1000;
    utimesSync(staleTemp, hourAgo, hourAgo);
    await embeddedCopy(src.path, src.hash, dir, 'sample', '.sqlite');
    expect([old, staleTemp, freshTemp, unrelated].map(existsSync)).toEqual([false, false, true, true]);
  });
});
