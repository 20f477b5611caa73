/** Where progress goes: a redrawn bar on a terminal, else a plain line every `intervalMs`. */
export type ProgressOptions = { tty: boolean; write: (s: string) => void; now?: () => number; intervalMs?: number };

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.max(0, Math.round(seconds));
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

/** Rows, rows/s and ETA from the byte offset (the only thing known in advance about a CSV's length). */
export class Progress {
  private readonly started: number;
  private last = 0;
  private readonly now: () => number;
  private readonly interval: number;
  private drawn = false;
  private lastBar = '';

  constructor(private readonly totalBytes: number, private readonly opts: ProgressOptions) {
    this.now = opts.now ?? (() => performance.now());
    this.started = this.now();
    this.last = this.started;
    this.interval = opts.intervalMs ?? (opts.tty ? 200 : 10_000);
  }

  /** Called once per batch of rows (thousands), so reading the clock each time costs nothing. */
  update(rows: number, bytes: number): void {
    const t = this.now();
    if (t - this.last < this.interval) return;
    this.last = t;
    this.opts.write(this.render(rows, bytes, t));
  }

  private render(rows: number, bytes: number, t: number): string {
    const secs = (t - this.started) / 1000;
    const rate = secs > 0 ? rows / secs : 0;
    const frac = this.totalBytes > 0 ? Math.min(1, bytes / this.totalBytes) : 0;
    const eta = frac > 0 ? (secs / frac) * (1 - frac) : Infinity;
    const stats = `${fmt(rows)} rows  ${fmt(rate)} rows/s  ${(frac * 100).toFixed(1)}%  ETA ${duration(eta)}`;
    if (!this.opts.tty) return `ingest: ${stats}\n`;
    this.drawn = true;
    const width = 30;
    const filled = Math.round(frac * width);
    this.lastBar = `\r\x1b[K[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${stats}`;
    return this.lastBar;
  }

  /** Prints a whole line (a reject, a warning) above the bar: the bar is cleared, the line written, the bar redrawn. */
  printLine(line: string, print: (line: string) => void): void {
    if (!this.drawn) return print(line);
    this.opts.write('\r\x1b[K');
    print(line);
    this.opts.write(this.lastBar);
  }

  /** Ends the bar's line so the summary starts on a fresh one. */
  done(): void {
    if (this.drawn) this.opts.write('\r\x1b[K');
  }
}
