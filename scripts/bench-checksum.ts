/**
 * What verifying the checksums of the files beside an index costs at open (`.area`:
 * src/area/spatial-file.ts; `.search`: src/index/search/file.ts): CRC-32 (Bun.hash.crc32) over
 * every byte of the mapped file, first pass (pages faulted in from the page cache, or the disk)
 * then warm passes.
 *   npx bun run scripts/bench-checksum.ts <index>.area|<index>.search [rounds=3]
 */
const path = process.argv[2];
if (!path) throw new Error('usage: bench-checksum.ts <file> [rounds]');
const rounds = Number(process.argv[3] ?? 3);
const bytes = Bun.mmap(path, { shared: false });
console.log(`${path}: ${(bytes.length / 1048576).toFixed(0)} MiB`);
for (let r = 0; r < rounds; r++) {
  const t = performance.now();
  Bun.hash.crc32(bytes);
  const ms = performance.now() - t;
  console.log(`${r === 0 ? 'first pass' : 'warm pass '}: ${ms.toFixed(0)} ms (${(bytes.length / 1048576 / (ms / 1000)).toFixed(0)} MiB/s)`);
}
