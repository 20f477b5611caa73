import type { Database } from 'bun:sqlite';
import { dataCompleteness, type DataCompleteness, type SourceFormat } from '../scoring/completeness';
import { factsOf } from '../scoring/facts';
import type { ProgramsInputs, ScoreInputs } from '../scoring/model';
import { evidenceOfStored, type Evidence } from './evidence';
import { inputsOfStored } from './inputs-codec';

/**
 * What a lookup shows beside the score, read from what ingest stored: the facility's data
 * completeness (from its stored inputs and programs, the facts its score used, read with the row by
 * ./stored-lookup.ts) and its evidence (table facility_evidence, a keyed read). The completeness is memoised by the stored inputs
 * text and programs (facilities with the same inputs share one answer), the empty evidence is one
 * shared object (most facilities have no row).
 */
export class BesideScore {
  private readonly evidenceById;
  /** index_meta `evidence_reported`: the evidence keys every source had a column for (./evidence.ts). */
  readonly evidenceReported: ReadonlySet<string>;
  /** index_meta `source_formats`: the ECHO layouts the build read; empty in a file written before the key. */
  private readonly formats: readonly SourceFormat[];
  private readonly noEvidence: Evidence;
  private memo = new Map<string, DataCompleteness>();

  constructor(
    db: Database,
    private readonly inputsKeys: readonly string[],
    private readonly asOf: string,
    private readonly memoLimit = 4096,
  ) {
    const meta = db.prepare<{ value: string }, [string]>('SELECT value FROM index_meta WHERE key = ?');
    this.evidenceReported = new Set(JSON.parse(meta.get('evidence_reported')?.value ?? '[]') as string[]);
    this.formats = JSON.parse(meta.get('source_formats')?.value ?? '[]') as SourceFormat[];
    this.evidenceById = db.prepare<{ evidence: string }, [string]>('SELECT evidence FROM facility_evidence WHERE registry_id = ?');
    this.noEvidence = frozen(evidenceOfStored(null, this.evidenceReported));
  }

  /** The facility's evidence; null for a key no source reported. Shared when empty: read-only. */
  evidence(registryId: string): Evidence {
    const text = this.evidenceById.get(registryId)?.evidence;
    return text ? evidenceOfStored(text, this.evidenceReported) : this.noEvidence;
  }

  /**
   * The data_completeness of a facility's stored inputs text (facility_inputs.score_inputs, read with
   * its row) and stored programs; null without inputs. Shared between lookups: read-only.
   */
  completeness(text: string | null, programs: ProgramsInputs, programsKey: string | number): DataCompleteness | null {
    if (text === null) return null;
    const key = `${programsKey}|${text}`;
    let c = this.memo.get(key);
    if (c === undefined) {
      const inputs = inputsOfStored(text, this.inputsKeys);
      inputs.programs = programs;
      c = frozen(this.completenessOf(inputs));
      if (this.memo.size >= this.memoLimit) this.memo = new Map();
      this.memo.set(key, c);
    }
    return c;
  }

  /** The data_completeness of a facility's inputs, programs included (reports: a new object each call). */
  completenessOf(inputs: ScoreInputs): DataCompleteness {
    return dataCompleteness(factsOf(inputs, this.asOf), this.formatOf(inputs.not_reported));
  }

  /**
   * The layout a facility's row came from: the build's, when it read one; otherwise (an index built
   * from both, or before the key was written) the facility's own columns tell: the facility-search
   * download has no FAC_ACTIVE_FLAG, every exporter layout ingest reads has it.
   */
  private formatOf(notReported: readonly string[] | null | undefined): SourceFormat {
    if (this.formats.length === 1) return this.formats[0]!;
    return notReported?.includes('facility_active') ? 'echo-facility-search' : 'echo-exporter';
  }
}

/** Shared values are frozen; their arrays are not (a frozen array sends JSON.stringify off its fast path): callers must not change them. */
function frozen<T extends object>(o: T): T {
  return Object.freeze(o);
}
