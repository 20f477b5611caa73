import { mkdir, readdir, rename, stat, statfs, unlink, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Log } from '../log';
import { sha256Hex } from '../hash';
import { encodeEntry, parseEntry, readEntryFile } from './cache-entry';
import { HotEntries } from './hot-entries';

/** docs/reports.md: a rendered dossier is reused for 24 hours. */
export const REPORT_TTL_MS = 24 * 60 * 60 * 1000;
/** Expired entries are swept at most this often, on the write path (no timers). */
export const SWEEP_INTERVAL_MS = 10 * 60 * 1000;
/** A temp file older than this belongs to a write that died; the sweep removes it. */
const STALE_TEMP_MS = 60 * 60 * 1000;

/**
 * Counters of what a cache did on disk (monotonic), exported as fcs_report_cache_disk_events_total;
 * the HIT/MISS/BYPASS outcomes are counted from the `X-Cache` header (fcs_report_cache_total,
 * src/ops/service-metrics.ts). `serve` builds one cache per process, so reloads keep counting.
 */
export function newReportCacheStats() {
  return {
    stores: 0,
    store_errors: 0,
    read_errors: 0,
    corrupt: 0,
    expired: 0,
    swept: 0,
    /** Fresh entries deleted, oldest first, to bring the cache back under its size cap. */
    evicted: 0,
    /** PDFs not stored because the file system had less free space than the floor. */
    low_space: 0,
  };
}
export type ReportCacheStats = ReturnType<typeof newReportCacheStats>;

/** After going over its cap, the cache is trimmed to this share of it, so a full cache does not evict on every write. */
const EVICT_TO = 0.9;

/**
 * The on-disk dossier cache. One file per key, named by the SHA-256 of the key (never by any raw
 * input, so no ID can traverse or collide). A file is a one-line header then the PDF
 * (src/reports/cache-entry.ts); it is written to a temp file and renamed, and the header's length
 * and checksum are verified on every read, so a torn write (crash, power loss, disk full) or an
 * altered file is a miss, never a served PDF. Every failure here is swallowed into a miss: the
 * caller renders in memory instead (a cache miss is never a 500: docs/api.md, Errors). The most recently used
 * entries are also kept in memory (./hot-entries.ts), so a hit on one reads no file.
 */
export class ReportCache {
  private lastSweepAt = Number.NEGATIVE_INFINITY;
  private lastFailureLogAt = Number.NEGATIVE_INFINITY;
  /** The sweep started by the latest write, if any (tests await it). */
  sweeping: Promise<number> | null = null;
  private sweepRunning = false;
  /** Bytes of the entries on disk as of the last sweep plus this process's writes since; null before the first sweep. */
  private bytes: number | null = null;

  constructor(
    readonly dir: string,
    private readonly clock: () => number,
    private readonly log: Log,
    private readonly ttlMs = REPORT_TTL_MS,
    /** Size cap of the entries (config `reportCacheMaxMb`); past it the oldest entries go first. */
    private readonly maxBytes = Number.POSITIVE_INFINITY,
    /** Budget of the memory tier (config `reportCacheMemoryMb`; ./hot-entries.ts); 0 = every hit reads the file. */
    memoryBytes = 0,
    readonly stats: ReportCacheStats = newReportCacheStats(),
    /**
     * Free space (bytes) the cache leaves on its file system (config `reportCacheMinFreeMb`): below
     * it nothing is stored, so one caller's many PDFs cannot fill the disk the state store counts
     * every caller's calls on (docs/operations.md, "Disk layout").
     */
    private readonly minFreeBytes = 0,
  ) {
    this.memory = new HotEntries(memoryBytes);
  }

  /** Recently used entries in memory, served without reading their file (./hot-entries.ts). */
  readonly memory: HotEntries;

  /** 64 hex chars: the only thing a file name is made of. */
  static keyOf(parts: readonly string[]): string {
    return sha256Hex(JSON.stringify(parts));
  }

  private pathOf(key: string): string {
    if (!/^[0-9a-f]{64}$/.test(key)) throw new Error('report cache keys are SHA-256 hex digests');
    return join(this.dir, `${key}.pdf`);
  }

  /** The cached PDF for `key`, or null when absent, expired, unreadable or corrupt. */
  async get(key: string): Promise<Uint8Array | null> {
    const held = this.memory.get(key, this.clock(), this.ttlMs);
    if (held !== null) return held;
    const path = this.pathOf(key);
    let file: Uint8Array;
    try {
      file = readEntryFile(path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') this.failure('read', e, () => this.stats.read_errors++);
      return null;
    }
    const entry = parseEntry(file, key);
    if (entry === 'outdated') return null;
    if (entry === 'corrupt') {
      this.stats.corrupt++;
      this.log({ level: 'warn', msg: 'report cache: corrupt entry discarded', file: `${key}.pdf` });
      await unlink(path).catch(() => {});
      return null;
    }
    const age = this.clock() - entry.createdAt;
    if (age < 0 || age >= this.ttlMs) {
      this.stats.expired++;
      return null;
    }
    this.memory.set(key, entry.createdAt, entry.pdf);
    return entry.pdf;
  }

  /** Stores `pdf` under `key`; false (and a rate-limited warning) when the disk refuses. */
  async put(key: string, pdf: Uint8Array): Promise<boolean> {
    const path = this.pathOf(key);
    const now = this.clock();
    const body = encodeEntry(key, now, pdf);
    if (await this.belowFloor(body.length)) {
      this.failure('write', Object.assign(new Error(`less than ${Math.round(this.minFreeBytes / 1048576)} MiB free`), { code: 'LOW_SPACE' }), () => this.stats.low_space++);
      return false;
    }
    const temp = join(this.dir, `.tmp-${now}-${crypto.randomUUID()}`);
    try {
      await writeTemp(this.dir, temp, body);
      // mtime carries the creation time on the service clock, so the sweep needs no reads
      await utimes(temp, now / 1000, now / 1000);
      await rename(temp, path);
    } catch (e) {
      await unlink(temp).catch(() => {});
      this.failure('write', e, () => this.stats.store_errors++);
      return false;
    }
    this.stats.stores++;
    this.memory.set(key, now, pdf);
    if (this.bytes !== null) this.bytes += body.length;
    const overCap = this.bytes !== null && this.bytes > this.maxBytes;
    if ((overCap || now - this.lastSweepAt >= SWEEP_INTERVAL_MS) && !this.sweepRunning) {
      this.lastSweepAt = now;
      this.sweeping = this.sweep();
    }
    return true;
  }

  /**
   * Deletes expired entries and abandoned temp files, then, when the entries left exceed the size
   * cap, the oldest of them down to 90% of it. Returns how many files went. Never throws.
   */
  async sweep(): Promise<number> {
    this.sweepRunning = true;
    try {
      return await this.sweepNow();
    } finally {
      this.sweepRunning = false;
    }
  }

  private async sweepNow(): Promise<number> {
    const now = this.clock();
    let removed = 0;
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return 0;
    }
    const kept: { path: string; mtime: number; size: number }[] = [];
    for (const name of names) {
      const path = join(this.dir, name);
      const temp = /^\.tmp-(\d+)-/.exec(name);
      let stale: boolean;
      if (temp) stale = now - Number(temp[1]) >= STALE_TEMP_MS;
      else if (/^[0-9a-f]{64}\.pdf$/.test(name)) {
        const st = await stat(path).catch(() => null);
        if (!st) continue;
        stale = now - st.mtimeMs >= this.ttlMs || st.mtimeMs - now > this.ttlMs;
        if (!stale) kept.push({ path, mtime: st.mtimeMs, size: st.size });
      } else continue; // not ours: never delete what this cache did not write
      if (stale && (await unlink(path).then(() => true, () => false))) removed++;
    }
    this.stats.swept += removed;
    let total = kept.reduce((sum, e) => sum + e.size, 0);
    if (total > this.maxBytes) {
      kept.sort((a, b) => a.mtime - b.mtime);
      for (const e of kept) {
        if (total <= this.maxBytes * EVICT_TO) break;
        if (await unlink(e.path).then(() => true, () => false)) {
          total -= e.size;
          removed++;
          this.stats.evicted++;
        }
      }
    }
    this.bytes = total;
    return removed;
  }

  /** Whether storing `bytes` more would leave less than the floor free; a file system that cannot tell is left to the write. */
  private async belowFloor(bytes: number): Promise<boolean> {
    if (this.minFreeBytes <= 0) return false;
    // Before the first store the directory may not exist yet: its parent is on the same file system.
    const fs = await statfs(this.dir).catch(() => statfs(dirname(this.dir))).catch(() => null);
    return fs !== null && fs.bavail * fs.bsize - bytes < this.minFreeBytes;
  }

  private failure(op: 'read' | 'write', e: unknown, count: () => void): void {
    count();
    const now = this.clock();
    if (now - this.lastFailureLogAt < 60_000) return;
    this.lastFailureLogAt = now;
    const code = (e as NodeJS.ErrnoException).code ?? 'unknown';
    this.log({ level: 'warn', msg: `report cache ${op} failed; serving rendered PDFs without caching`, dir: this.dir, code, error: (e as Error).message });
  }
}

async function writeTemp(dir: string, temp: string, body: Uint8Array): Promise<void> {
  try {
    await writeFile(temp, body, { flag: 'wx', mode: 0o600 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await writeFile(temp, body, { flag: 'wx', mode: 0o600 });
  }
}
