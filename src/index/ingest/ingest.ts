import { statSync } from 'node:fs';
import { scoreFacility, SCORE_VERSION } from '../../scoring/score';
import { IndexWriter } from '../index-writer';
import type { FacilityRow, IndexInfo } from '../model';
import { AS_OF_BUFFER_ROWS, AsOfVoter } from './as-of';
import { readHeader, type HeaderInfo, type SourceFormat } from './columns';
import { csvRecords } from './csv-records';
import { TruncatedFileError, UnusableInputError } from './errors';
import { Progress, type ProgressOptions } from './progress';
import { RejectsWriter } from './rejects';
import { mapRow, REJECT_REASONS, type MappedRow, type RejectReason } from './row-mapper';
import { openSource } from './source';

/** Bumped when ingest's reading of the files changes (so `scripts/sample.ts ensure` rebuilds). */
export const INGEST_VERSION = '1';

export { UnusableInputError };

export type IngestOptions = {
  files: string[];
  out: string;
  /** YYYY-MM-DD; default: inferred from the data (see docs/ingest.md), else the newest file's date. */
  asOf?: string;
  datasetName?: string;
  /** Declares the data invented; default: true exactly when every indexed ID starts with 99. */
  fictitious?: boolean;
  log: (line: string) => void;
  progress?: ProgressOptions;
  /** How many rejected rows are printed as they happen (all go to the rejects CSV). */
  showRejects?: number;
};

export type IngestSummary = {
  info: IndexInfo;
  out: string;
  rejectsPath: string;
  formats: SourceFormat[];
  asOfSource: 'flag' | 'inferred' | 'file-date';
  missingColumns: Record<string, string[]>;
  seconds: number;
};

const FORMAT_LABEL: Record<SourceFormat, string> = { 'echo-exporter': 'ECHO exporter', 'echo-facility-search': 'ECHO facility search' };

/** Builds the index at `out` from the files, atomically: on any failure the previous index is untouched. */
export async function ingest(opts: IngestOptions): Promise<IngestSummary> {
  const started = performance.now();
  const writer = new IndexWriter(opts.out);
  const rejects = new RejectsWriter(opts.out);
  const counts = { read: 0, accepted: 0, rejected: 0, blank: 0 };
  const byReason = new Map<RejectReason, number>();
  const sizes = opts.files.map((f) => statSync(f).size);
  const progress = opts.progress ? new Progress(sizes.reduce((a, b) => a + b, 0), opts.progress) : null;
  const voter = new AsOfVoter();
  let asOf = opts.asOf ?? null;
  let asOfSource: IngestSummary['asOfSource'] = opts.asOf ? 'flag' : 'inferred';
  let pending: { row: MappedRow; file: string; line: number; fields: string[] }[] = [];
  let allFictitious = true;
  let shown = 0;
  let bytesBefore = 0;
  const sources: IndexInfo['sources'] = [];
  const formats: SourceFormat[] = [];
  const missingColumns: Record<string, string[]> = {};

  const reject = (file: string, line: number, reason: RejectReason, detail: string, id: string, fields: string[]) => {
    counts.rejected++;
    byReason.set(reason, (byReason.get(reason) ?? 0) + 1);
    rejects.add(file, line, reason, detail, id, fields);
    if (shown < (opts.showRejects ?? 10)) {
      shown++;
      opts.log(`  rejected ${file}:${line} ${reason}: ${detail}`);
    }
  };
  const accept = (m: MappedRow, file: string, line: number, fields: string[]) => {
    const s = scoreFacility(m.inputs, asOf!);
    const row: FacilityRow = {
      registry_id: m.registry_id, fac_name: m.fac_name, fac_street: m.fac_street, fac_city: m.fac_city, fac_state: m.fac_state,
      fac_zip: m.fac_zip, lat: m.lat, lng: m.lng, fac_naics: m.fac_naics, overall_score: s.overall, active_enforcement: s.active_enforcement,
      baseline: s.baseline, violation_frequency: s.violation_frequency, penalty_severity: s.penalty_severity, recency: s.recency,
      repeat_offender: s.repeat_offender, score_hash: s.score_hash, score_inputs: m.inputs,
    };
    if (!writer.addIfNew(row)) return reject(file, line, 'duplicate_id', 'registry ID already indexed from an earlier row (the first one is kept)', m.registry_id, fields);
    counts.accepted++;
    if (!m.registry_id.startsWith('99')) allFictitious = false;
  };
  const flush = (date: string, source: IngestSummary['asOfSource']) => {
    asOf = date;
    asOfSource = source;
    for (const p of pending) accept(p.row, p.file, p.line, p.fields);
    pending = [];
  };

  try {
    for (const [i, path] of opts.files.entries()) {
      const src = openSource(path);
      let header: HeaderInfo | null = null;
      let dataRows = 0;
      try {
        for await (const rec of csvRecords(src.chunks)) {
          if (!header) {
            header = readHeader(rec.fields);
            formats.push(header.format);
            if (header.missing.length) missingColumns[src.name] = header.missing;
            continue;
          }
          counts.read++;
          progress?.update(counts.read, bytesBefore + src.bytesRead());
          const f = rec.fields;
          if (f.every((v) => v.trim() === '')) {
            counts.blank++; // e.g. the all-comma trailer of facility-search downloads: counted, not a facility
            continue;
          }
          dataRows++;
          if (rec.unterminated && f.length < header.width) throw new TruncatedFileError(`last record (line ${rec.line}) has ${f.length} of ${header.width} fields: file cut short`);
          if (f.length < header.width || (f.length > header.width && f.slice(header.width).some((v) => v.trim() !== ''))) {
            reject(src.name, rec.line, 'wrong_field_count', `${f.length} fields, header has ${header.width}`, f[header.columns.registry_id] ?? '', f);
            continue;
          }
          const m = mapRow(f, header.columns);
          if ('reason' in m) reject(src.name, rec.line, m.reason, m.detail, m.registry_id, f);
          else if (asOf !== null) accept(m, src.name, rec.line, f);
          else {
            voter.add(m);
            pending.push({ row: m, file: src.name, line: rec.line, fields: f });
            const decided = voter.decided;
            if (decided) flush(decided, 'inferred');
            else if (pending.length >= AS_OF_BUFFER_ROWS) flush(fileDate(opts.files), 'file-date');
          }
        }
      } catch (e) {
        if (e instanceof TruncatedFileError) throw new TruncatedFileError(`${src.name}: truncated: ${e.message}`);
        if (e instanceof UnusableInputError) throw new UnusableInputError(`${src.name}: ${e.message}`);
        throw e;
      }
      if (!header) throw new UnusableInputError(`${src.name}: empty file`);
      if (dataRows === 0) throw new UnusableInputError(`${src.name}: header only, no facility rows`);
      sources.push({ name: src.name, sha256: src.sha256() });
      bytesBefore += sizes[i]!;
    }
    if (asOf === null) {
      const leading = voter.leading;
      flush(leading ?? fileDate(opts.files), leading ? 'inferred' : 'file-date');
    }
    if (counts.accepted === 0) throw new UnusableInputError(`no row could be indexed (${counts.rejected} rejected; the first ones are shown above)`);
    progress?.done();

    const row_counts: Record<string, number> = { ...counts };
    for (const r of REJECT_REASONS) if (byReason.has(r)) row_counts[`rejected_${r}`] = byReason.get(r)!;
    const fictitious = opts.fictitious ?? allFictitious;
    const labels = [...new Set(formats.map((f) => FORMAT_LABEL[f]))].join(' + ');
    writer.setMeta('ingest_version', INGEST_VERSION);
    const info = writer.finish({
      dataset_name: opts.datasetName ?? `${fictitious ? 'FICTITIOUS ' : ''}${labels}: ${sources.map((s) => s.name).join(', ')}`,
      as_of: asOf!,
      score_version: SCORE_VERSION,
      fictitious,
      built_at: new Date().toISOString(),
      sources,
      row_counts,
    });
    await rejects.finish();
    return { info, out: opts.out, rejectsPath: rejects.path, formats, asOfSource, missingColumns, seconds: (performance.now() - started) / 1000 };
  } catch (e) {
    progress?.done();
    writer.abort();
    await rejects.abort();
    throw e;
  }
}

/** Fallback as-of date: the newest input file's modification day (UTC). Documented as a fallback; pass --as-of. */
function fileDate(files: string[]): string {
  const newest = Math.max(...files.map((f) => statSync(f).mtimeMs));
  return new Date(newest).toISOString().slice(0, 10);
}
