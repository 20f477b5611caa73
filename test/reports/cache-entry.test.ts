import { describe, expect, it } from 'bun:test';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { sha256Hex } from '../../src/hash';
import { ReportCache } from '../../src/reports/cache';
import { encodeEntry, parseEntry, readEntryFile } from '../../src/reports/cache-entry';
import { FIXED_NOW, fixedClock } from '../helpers';
import { tempDir } from '../support/temp-dir';

const key = ReportCache.keyOf(['entry test']);
const pdf = new TextEncoder().encode('%PDF-1.7\n% a body of some length\n%%EOF\n');
const header = (file: Uint8Array) => new TextDecoder().decode(file.subarray(0, file.indexOf(10)));

describe('a cache entry file', () => {
  it('is the header `FCSR2 <created> <length> <CRC-32 as zlib computes it, 8 hex digits> <key>`, then the PDF byte for byte', () => {
    const file = encodeEntry(key, FIXED_NOW, pdf);
    const crc = crc32(pdf).toString(16).padStart(8, '0');
    expect(header(file)).toBe(`FCSR2 ${FIXED_NOW} ${pdf.length} ${crc} ${key}`);
    expect(file.subarray(file.indexOf(10) + 1)).toEqual(pdf);
    expect(parseEntry(file, key)).toEqual({ createdAt: FIXED_NOW, pdf });
  });

  it('writes the checksum with its leading zeros (8 digits for every PDF)', () => {
    const lengths = Array.from({ length: 300 }, (_, n) => header(encodeEntry(key, 1, new Uint8Array([n & 0xff, n >> 8]))).split(' ')[3]!.length);
    expect(new Set(lengths)).toEqual(new Set([8]));
  });

  it.each([
    ['a PDF byte changed', (f: Uint8Array) => f.map((b, i) => (i === f.length - 3 ? b ^ 1 : b))],
    ['the PDF cut short', (f: Uint8Array) => f.subarray(0, f.length - 1)],
    ['another key in the header', (f: Uint8Array) => encodeEntry(ReportCache.keyOf(['another']), FIXED_NOW, pdf)],
    ['no header line', () => pdf],
  ])('is corrupt when %s', (_name, change) => {
    expect(parseEntry(change(encodeEntry(key, FIXED_NOW, pdf)), key)).toBe('corrupt');
  });

  it('written by the release before (FCSR1, SHA-256) is outdated, not corrupt', () => {
    const old = new TextEncoder().encode(`FCSR1 ${FIXED_NOW} ${pdf.length} ${sha256Hex(pdf)} ${key}\n%PDF-1.7 old`);
    expect(parseEntry(old, key)).toBe('outdated');
  });
});

describe('reading an entry', () => {
  it('reads the whole of a file of several MB', () => {
    const path = join(tempDir('cache-entry'), 'big');
    const body = new Uint8Array(3 * 1024 * 1024).map((_, i) => i % 251);
    writeFileSync(path, body);
    expect(readEntryFile(path)).toEqual(body);
  });

  it('a FIFO at an entry\'s name does not hold the reader (no writer ever comes): a corrupt miss, and the FIFO is removed', async () => {
    const dir = tempDir('cache-entry-fifo');
    const cache = new ReportCache(dir, fixedClock(), () => {});
    const path = join(dir, `${key}.pdf`);
    expect(Bun.spawnSync(['mkfifo', path]).exitCode).toBe(0);
    expect(await cache.get(key)).toBeNull();
    expect(cache.stats.corrupt).toBe(1);
    expect(existsSync(path)).toBe(false);
  });
});

describe('an entry of the release before, in the cache', () => {
  it('is a quiet miss (not counted corrupt, no warning), and the next store replaces it', async () => {
    const dir = tempDir('cache-entry-old');
    const warnings: unknown[] = [];
    const cache = new ReportCache(dir, fixedClock(), (e) => void warnings.push(e));
    const path = join(dir, `${key}.pdf`);
    writeFileSync(path, `FCSR1 ${FIXED_NOW} ${pdf.length} ${sha256Hex(pdf)} ${key}\n`);
    expect(await cache.get(key)).toBeNull();
    expect([cache.stats.corrupt, cache.stats.expired, cache.stats.read_errors, warnings.length]).toEqual([0, 0, 0, 0]);
    expect(await cache.put(key, pdf)).toBe(true);
    expect(header(readFileSync(path))).toStartWith('FCSR2 ');
    expect(statSync(path).size).toBe(encodeEntry(key, FIXED_NOW, pdf).length);
    expect(await cache.get(key)).toEqual(pdf);
  });
});
