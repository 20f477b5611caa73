import { statSync } from 'node:fs';
import { scoreAndExplain } from '../scoring/score';
import { DetailEncoder, type DetailDictionary } from '../index/facility-detail';
import { storedInputsJson } from '../index/inputs-codec';
import { storedEvidenceJson } from '../index/evidence';
import { siteFactBitsOf } from '../index/site-facts';
import { declaredValuesOf } from '../index/declared-columns';
import type { IndexRow } from '../index/index-row';
import { evidenceReported } from './evidence-columns';
import { AS_OF_BUFFER_ROWS, AsOfVoter, type AsOfSource } from './as-of';
import { readHeader, type Field, type HeaderInfo, type SourceFormat } from './columns';
import { csvBatches, type CsvRecord } from './csv-records';
import { TruncatedFileError, UnusableInputError } from './errors';
import { RegistryIdSet } from './id-set';
import { mapRow, type MappedRow, type RejectReason } from './row-mapper';
import { RecordCells } from './record-cells';
import { openSource } from './source';

export type Reject = { file: string; line: number; reason: RejectReason; detail: string; registry_id: string; fields: string[] };

/** What the producer reports; the consumer (same thread or the main thread) indexes and writes rejects. */
export type ProducerSink = {
  /** `evidence`: the evidence keys the file has columns for (src/index/evidence.ts). */
  header(file: string, format: SourceFormat, missing: Field[], evidence: string[]): void;
  /** `dictionary`: the explanation templates and shared program records first used by these rows (the writer stores them with the rows). */
  rows(rows: IndexRow[], bytesRead: number, rowsRead: number, dictionary: DetailDictionary): void | Promise<void>;
  reject(r: Reject): void;
  blank(): void;
  fileDone(name: string, sha256: string): void;
  asOf(date: string, source: AsOfSource): void;
};

const BATCH = 2000;

/**
 * Reads, parses, maps and scores every row of `files` in order, reporting rows in batches. Owns the
 * as-of decision (rows are held unscored until it is known) and duplicate detection (first row wins).
 */
export async function produce(files: string[], asOfFlag: string | undefined, sink: ProducerSink): Promise<void> {
  const voter = new AsOfVoter();
  let asOf = asOfFlag ?? null;
  if (asOf) sink.asOf(asOf, 'flag');
  let pending: { row: MappedRow; file: string; rec: CsvRecord; format: SourceFormat }[] = [];
  let batch: IndexRow[] = [];
  const details = new DetailEncoder();
  const seen = new RegistryIdSet();
  const cells = new RecordCells();
  let rowsRead = 0;
  let bytesBefore = 0;
  let bytesNow = 0;

  const flushBatch = async () => {
    if (batch.length === 0) return;
    const b = batch;
    batch = [];
    await sink.rows(b, bytesNow, rowsRead, details.drain());
  };
  const accept = async (m: MappedRow, file: string, rec: CsvRecord, format: SourceFormat) => {
    if (!seen.addIfNew(m.registry_id)) {
      sink.reject({ file, line: rec.line, reason: 'duplicate_id', detail: 'registry ID already indexed from an earlier row (the first one is kept)', registry_id: m.registry_id, fields: rec.fields });
      return;
    }
    // the explanation and the data completeness come from the same facts as the score, and are stored: a lookup derives neither
    // the stored inputs' JSON is written first: the score hash is made from it (scoring/score.ts scoreHashOfStored)
    const inputsJson = storedInputsJson(m.inputs);
    const { score: s, why, facts } = scoreAndExplain(m.inputs, asOf!, inputsJson);
    // what a site report reads beyond the row (../index/declared-columns.ts): the row's own, or derived from its evidence
    const d = declaredValuesOf(m, m.evidence, asOf!);
    batch.push({
      registry_id: m.registry_id, fac_name: m.fac_name, fac_street: m.fac_street, fac_city: m.fac_city, fac_state: m.fac_state, fac_zip: m.fac_zip,
      lat: m.lat, lng: m.lng, fac_naics: m.fac_naics,
      overall_score: s.overall, active_enforcement: s.active_enforcement ? 1 : 0, baseline: s.baseline, violation_frequency: s.violation_frequency,
      penalty_severity: s.penalty_severity, recency: s.recency, repeat_offender: s.repeat_offender, score_hash: s.score_hash,
      score_inputs_json: inputsJson, detail: details.encode(m.inputs.programs, why), evidence_json: storedEvidenceJson(m.evidence),
      completeness: details.completeness(facts, format), site_facts: siteFactBitsOf(facts, m.inputs.programs, m.evidence),
      // in the literal, not spread or set after it: the row is made with room for every field (a row grown after it was made took a second allocation)
      loc_accuracy_m: d.loc_accuracy_m, loc_method: d.loc_method, program_ids: d.program_ids, rcra_generator_size: d.rcra_generator_size,
      latest_violation_quarter: d.latest_violation_quarter, latest_action_date: d.latest_action_date,
    } satisfies Required<IndexRow>);
    if (batch.length >= BATCH) await flushBatch();
  };
  const decide = async (date: string, source: Exclude<AsOfSource, 'flag'>) => {
    asOf = date;
    sink.asOf(date, source);
    for (const p of pending) await accept(p.row, p.file, p.rec, p.format);
    pending = [];
  };

  for (const path of files) {
    const src = openSource(path);
    let header: HeaderInfo | null = null;
    let dataRows = 0;
    try {
      for await (const batch of csvBatches(src.chunks)) for (const rec of batch) {
        if (!header) {
          header = readHeader(rec.fields);
          sink.header(src.name, header.format, header.missing, evidenceReported(header.evidence));
          continue;
        }
        rowsRead++;
        bytesNow = bytesBefore + src.bytesRead();
        const f = cells.read(rec); // the record's fields become strings only where read (record-cells.ts)
        if (f.blankFrom(0)) {
          sink.blank(); // e.g. the all-comma trailer of facility-search downloads: counted, not a facility
          continue;
        }
        dataRows++;
        if (rec.unterminated && f.length < header.width) throw new TruncatedFileError(`last record (line ${rec.line}) has ${f.length} of ${header.width} fields: file cut short`);
        if (f.length < header.width || (f.length > header.width && !f.blankFrom(header.width))) {
          const id = header.columns.registry_id < 0 ? '' : (f.raw(header.columns.registry_id) ?? '');
          sink.reject({ file: src.name, line: rec.line, reason: 'wrong_field_count', detail: `${f.length} fields, header has ${header.width}`, registry_id: id, fields: rec.fields });
          continue;
        }
        const m = mapRow(f, header);
        if ('reason' in m) sink.reject({ file: src.name, line: rec.line, reason: m.reason, detail: m.detail, registry_id: m.registry_id, fields: rec.fields });
        else if (asOf !== null) await accept(m, src.name, rec, header.format);
        else {
          voter.add(m);
          pending.push({ row: m, file: src.name, rec, format: header.format });
          const decided = voter.decided;
          if (decided) await decide(decided, 'inferred');
          else if (pending.length >= AS_OF_BUFFER_ROWS) await decide(fileDate(files), 'file-date');
        }
      }
    } catch (e) {
      if (e instanceof TruncatedFileError) throw new TruncatedFileError(`${src.name}: truncated: ${e.message}`);
      if (e instanceof UnusableInputError) throw new UnusableInputError(`${src.name}: ${e.message}`);
      throw e;
    }
    if (!header) throw new UnusableInputError(`${src.name}: empty file`);
    if (dataRows === 0) throw new UnusableInputError(`${src.name}: header only, no facility rows`);
    bytesBefore += src.size;
    bytesNow = bytesBefore;
    await flushBatch();
    sink.fileDone(src.name, src.sha256());
  }
  if (asOf === null) {
    const leading = voter.leading;
    await decide(leading ?? fileDate(files), leading ? 'inferred' : 'file-date');
  }
  await flushBatch();
}

/** Fallback as-of date: the newest input file's modification day (UTC). Documented as a fallback; pass --as-of. */
function fileDate(files: string[]): string {
  const newest = Math.max(...files.map((f) => statSync(f).mtimeMs));
  return new Date(newest).toISOString().slice(0, 10);
}
