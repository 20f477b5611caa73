import { createHash } from 'node:crypto';
import { closeSync, createReadStream, openSync, readSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { Readable, pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { TruncatedFileError, UnusableInputError } from './errors';

/** One input file being read: its decompressed bytes, how far into the file we are, and its hash once read. */
export type Source = {
  name: string;
  size: number;
  chunks: AsyncIterable<Uint8Array>;
  /** Bytes of the file (compressed, if gzip) consumed so far: drives progress and ETA. */
  bytesRead(): number;
  /** SHA-256 of the file as it is on disk; valid once `chunks` is exhausted. */
  sha256(): string;
};

/** Opens a CSV or gzip-compressed CSV (detected from its magic bytes, not its name). */
export function openSource(path: string): Source {
  const st = statSync(path);
  if (!st.isFile()) throw new Error(`${path} is not a file`);
  const head = Buffer.alloc(2);
  const fd = openSync(path, 'r');
  const got = readSync(fd, head, 0, 2, 0);
  closeSync(fd);
  const gzip = got === 2 && head[0] === 0x1f && head[1] === 0x8b;
  const hash = createHash('sha256');
  let read = 0;
  let digest = '';
  // A gzip file is read in small pieces and measured by what the decompressor has consumed, not by
  // what was read from disk: large reads put a small sample half done before its first row, and the
  // read-ahead kept progress complete long before the end.
  const gunzip = gzip ? createGunzip({ chunkSize: 1 << 18 }) : null;
  async function* raw(): AsyncGenerator<Uint8Array> {
    for await (const chunk of createReadStream(path, { highWaterMark: gzip ? 1 << 16 : 1 << 20 })) {
      hash.update(chunk as Buffer);
      read += (chunk as Buffer).length;
      yield chunk as Buffer;
    }
    digest = hash.digest('hex');
  }
  async function* chunks(): AsyncGenerator<Uint8Array> {
    if (!gunzip) return yield* raw();
    const inflated = pipeline(Readable.from(raw()), gunzip, () => {});
    try {
      for await (const chunk of inflated) yield chunk as Buffer;
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      if (err.code === 'Z_BUF_ERROR' || /unexpected end/i.test(err.message)) throw new TruncatedFileError('gzip data ends early (truncated file)');
      throw new UnusableInputError(`gzip data is corrupt: ${err.message}`);
    }
  }
  return {
    name: basename(path),
    size: st.size,
    chunks: chunks(),
    bytesRead: () => (gunzip ? gunzip.bytesWritten : read),
    sha256: () => digest,
  };
}
