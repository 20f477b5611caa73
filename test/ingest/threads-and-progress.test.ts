import { describe, expect, it } from 'bun:test';
import { Database } from 'bun:sqlite';
import { join } from 'node:path';
import { exporterLines } from '../../scripts/synth/generator';
import { Progress } from '../../src/ingest/progress';
import { runIngest, writeFile } from './support';
import { tempDir } from '../support/temp-dir';

/** Every 701st data line's registry ID made non-numeric (and no DFR URL fid= to recover it): a reject. */
function withBadIds(lines: string[]): string[] {
  return lines.map((l, i) => (i > 0 && i % 701 === 0 ? l.replace(/^\d+,/, 'NOT-AN-ID,').replace(/fid=\d+/, 'fid=') : l));
}

describe('ingest on a worker thread', () => {
  it('builds exactly the same facility, facility_inputs and facility_address tables as ingest on one thread', async () => {
    const dir = tempDir('ingest');
    const file = writeFile(dir, 'gen.csv.gz', [...exporterLines({ seed: 'threads', rows: 3000, asOf: '2026-10-31' })].join('\r\n') + '\r\n', true);
    const two = await runIngest([file], join(dir, 'two.sqlite'));
    const one = await runIngest([file], join(dir, 'one.sqlite'), { inline: true });
    expect([two.summary.threads, one.summary.threads]).toEqual([2, 1]);
    expect(two.summary.info.row_counts).toEqual(one.summary.info.row_counts);
    const dump = (p: string) => new Database(p, { readonly: true }).query('SELECT * FROM facility ORDER BY registry_id').all();
    expect(dump(join(dir, 'two.sqlite'))).toEqual(dump(join(dir, 'one.sqlite')));
    // docs/ingest.md: "Both give identical tables", so the score inputs and the address index too
    const dumpOf = (p: string, sql: string) => {
      const db = new Database(p, { readonly: true });
      try {
        return db.query(sql).all();
      } finally {
        db.close();
      }
    };
    for (const sql of [
      'SELECT registry_id, score_inputs FROM facility_inputs ORDER BY registry_id',
      'SELECT address_key, registry_id FROM facility_address ORDER BY address_key, registry_id',
    ]) {
      const [twoRows, oneRows] = [dumpOf(join(dir, 'two.sqlite'), sql), dumpOf(join(dir, 'one.sqlite'), sql)];
      expect(twoRows.length).toBeGreaterThan(0);
      expect(twoRows).toEqual(oneRows);
    }
  });
});

describe('progress', () => {
  const clock = () => {
    let t = 0;
    const now = () => t;
    now.set = (ms: number) => void (t = ms);
    return now;
  };

  it('prints plain lines with rows, rows/s and an ETA from the byte offset when not on a terminal', () => {
    const out: string[] = [];
    const now = clock();
    const p = new Progress(1_000_000, { tty: false, write: (s) => out.push(s), now, intervalMs: 10_000 });
    now.set(5_000);
    p.update(4096, 100_000); // too soon: nothing
    now.set(10_000);
    p.update(8192, 250_000);
    expect(out).toEqual(['ingest: 8,192 rows  819 rows/s  25.0%  ETA 30s\n']);
  });

  it.each([true, false])('a real ingest reports progress as it goes (inline %p), not only on rare row counts', async (inline) => {
    const dir = tempDir('ingest');
    // 9,000 generated rows with some rejected for a non-numeric ID: batch ends fall on uneven row counts
    const file = writeFile(dir, 'p.csv', withBadIds([...exporterLines({ seed: 'progress', rows: 9000, asOf: '2026-10-31' })]).join('\r\n') + '\r\n');
    const out: string[] = [];
    const { summary } = await runIngest([file], join(dir, 'p.sqlite'), { inline, progress: { tty: false, write: (s) => out.push(s), intervalMs: 0 } });
    expect(summary.info.row_counts.rejected).toBeGreaterThan(0);
    expect(out.length).toBeGreaterThanOrEqual(4);
    for (const line of out) expect(line).toMatch(/^ingest: [\d,]+ rows  [\d,]+ rows\/s  [\d.]+%  ETA \S+\n$/);
    expect(out.at(-1)).toStartWith('ingest: 9,000 rows');
  });

  it('redraws one bar line on a terminal and clears it at the end', () => {
    const out: string[] = [];
    const now = clock();
    const p = new Progress(1000, { tty: true, write: (s) => out.push(s), now, intervalMs: 200 });
    now.set(1_000);
    p.update(4096, 500);
    p.done();
    expect(out[0]).toStartWith('\r\x1b[K[###############...............] 4,096 rows  4,096 rows/s  50.0%  ETA 1s');
    expect(out[1]).toBe('\r\x1b[K');
  });

  it('a reject line is printed above the bar, never into its line, and the bar is redrawn below it', () => {
    const out: string[] = [];
    const now = clock();
    const p = new Progress(1000, { tty: true, write: (s) => out.push(s), now, intervalMs: 200 });
    now.set(1_000);
    p.update(10, 100);
    const bar = out[0]!;
    p.printLine('  rejected f.csv:7 non_numeric_id: registry ID "X1"', (l) => out.push(`${l}\n`));
    expect(out.slice(1)).toEqual(['\r\x1b[K', '  rejected f.csv:7 non_numeric_id: registry ID "X1"\n', bar]);
  });

  it('a real gzip ingest on a terminal: progress follows the compressed bytes consumed, and reject lines sit on their own lines', async () => {
    const dir = tempDir('ingest');
    const csv = withBadIds([...exporterLines({ seed: 'progress-gz', rows: 12_000, asOf: '2026-10-31' })]).join('\r\n') + '\r\n';
    const file = join(dir, 'p.csv.gz');
    await Bun.write(file, Bun.gzipSync(csv));
    const out: string[] = [];
    const lines: string[] = [];
    await runIngest([file], join(dir, 'p.sqlite'), { inline: true, showRejects: 5, log: (l: string) => (out.push(`${l}\n`), lines.push(l)), progress: { tty: true, write: (s) => out.push(s), intervalMs: 0 } });
    const percents = out.filter((s) => s.startsWith('\r\x1b[K[')).map((s) => Number(/ ([\d.]+)%/.exec(s)![1]));
    expect(percents.length).toBeGreaterThan(5);
    // Not 100% from the first redraw (the old read-ahead measure): it rises through the file.
    expect(percents[0]!).toBeLessThan(50);
    expect(percents.some((x) => x > 20 && x < 80)).toBe(true);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    // Every reject line is preceded by a clear of the bar's line.
    const rejectAt = out.flatMap((s, i) => (s.startsWith('  rejected') ? [i] : []));
    expect(rejectAt.length).toBeGreaterThan(0);
    for (const i of rejectAt) if (out.slice(0, i).some((s) => s.startsWith('\r\x1b[K['))) expect(out[i - 1]).toBe('\r\x1b[K');
  });
});

describe('terminal safety', () => {
  it('control bytes in messages are escaped; newlines, tabs and text are kept', async () => {
    const { printable } = await import('../../src/cli/printable');
    expect(printable('header starts "\x1b[2J\x07\x00PK\u0085"\tok\nnext')).toBe('header starts "\\x1b[2J\\x07\\x00PK\\x85"\tok\nnext');
  });

  it('ingest of a binary file prints its header bytes escaped', () => {
    const dir = tempDir('ingest');
    const file = writeFile(dir, 'bin.csv', '\x1b[2J\x07BINARY,HEADER\nfoo,bar\n');
    const r = Bun.spawnSync([process.execPath, join(import.meta.dir, '..', '..', 'src', 'main.ts'), 'ingest', file, '--out', join(dir, 'x.sqlite')]);
    const err = r.stderr.toString();
    expect(r.exitCode).toBe(1);
    expect(err).toContain('\\x1b[2J\\x07BINARY');
    expect(err).not.toMatch(/[\x00-\x08\x0b-\x1f]/);
  });
});
