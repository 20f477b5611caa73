import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { crc32 } from 'node:zlib';

/**
 * One report cache file: a one-line header `FCSR2 <created ms> <length> <crc32> <key>` then the PDF.
 * The checksum is CRC-32 (zlib's, 8 hex digits): it is there to catch a torn or altered file, and
 * anyone who can write the cache directory can rewrite a header's checksum of any kind, so a
 * cryptographic hash bought nothing but time: SHA-256 over every hit was a large share of a site
 * report's read; CRC-32 is a small one.
 */
const MAGIC = 'FCSR2';
/** Entries written by the release before (SHA-256 checksum): a plain miss, replaced by the next store, not "corrupt". */
const OLDER_MAGIC = 'FCSR1';

function checksumOf(pdf: Uint8Array): string {
  return crc32(pdf).toString(16).padStart(8, '0');
}

/** The bytes of an entry file: header, then the PDF. */
export function encodeEntry(key: string, createdAt: number, pdf: Uint8Array): Uint8Array {
  const header = new TextEncoder().encode(`${MAGIC} ${createdAt} ${pdf.length} ${checksumOf(pdf)} ${key}\n`);
  const body = new Uint8Array(header.length + pdf.length);
  body.set(header);
  body.set(pdf, header.length);
  return body;
}

/**
 * Header checks: magic, our key, exact length and checksum. `outdated` for an entry of the older
 * format, `corrupt` on any other mismatch.
 */
export function parseEntry(file: Uint8Array, key: string): { createdAt: number; pdf: Uint8Array } | 'outdated' | 'corrupt' {
  const nl = file.subarray(0, 256).indexOf(10);
  if (nl < 0) return 'corrupt';
  const [magic, created, length, checksum, owner] = new TextDecoder().decode(file.subarray(0, nl)).split(' ');
  if (magic === OLDER_MAGIC && owner === key) return 'outdated';
  if (magic !== MAGIC || owner !== key || !/^\d+$/.test(created ?? '') || !/^\d+$/.test(length ?? '')) return 'corrupt';
  const pdf = file.subarray(nl + 1);
  if (pdf.length !== Number(length) || checksumOf(pdf) !== checksum) return 'corrupt';
  return { createdAt: Number(created), pdf };
}

/**
 * The file at `path`, read synchronously: a cached PDF is a page-cache copy of tens of KB, and the
 * thread-pool round trip of an async readFile cost more than the read and grew with the size (a
 * cached report's route handler, in process, took several times as long with it).
 * The index is read the same way (bun:sqlite). At most the size `fstat` gives is read, and the
 * open never waits (O_NONBLOCK), so a FIFO or device at an entry's name cannot hold the event
 * loop. Throws the system error (ENOENT, EISDIR, ...).
 */
export function readEntryFile(path: string): Uint8Array {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const file = Buffer.allocUnsafe(fstatSync(fd).size);
    let got = 0;
    while (got < file.length) {
      const n = readSync(fd, file, got, file.length - got, got);
      if (n === 0) break; // shrank since the fstat: what was read fails the length check
      got += n;
    }
    return file.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}
