import type { Database } from 'bun:sqlite';
import type { DataCompleteness } from '../scoring/completeness';
import type { ActiveEnforcementBasis } from '../scoring/model';
import { evidenceOfStored, type Evidence } from './evidence';

/** A facility's evidence as a lookup reads it: what ingest stored (non-empty values only) and the index's empty evidence under it. Read-only. */
export type StoredEvidence = { stored: Partial<Evidence>; empty: Evidence };

const NOTHING_STORED: Partial<Evidence> = Object.freeze({});

/**
 * What a lookup shows beside the score, as ingest stored it: the facility's data completeness (the
 * row's `completeness` id into completeness_kind, whose few rows are loaded here once, so a lookup
 * derives and parses nothing for it) and its evidence (column facility.evidence, read with a Starter+
 * lookup's row; the empty evidence is one shared object).
 */
export class BesideScore {
  /** index_meta `evidence_reported`: the evidence keys every source had a column for (./evidence.ts). */
  readonly evidenceReported: ReadonlySet<string>;
  private readonly noEvidence: Evidence;
  /** completeness_kind by id (index 0 unused), and the active_enforcement basis stored with each. */
  private readonly kinds: DataCompleteness[] = [];
  private readonly bases: (ActiveEnforcementBasis | null)[] = [];

  constructor(db: Database) {
    const reported = db.query<{ value: string }, []>("SELECT value FROM index_meta WHERE key = 'evidence_reported'").get();
    this.evidenceReported = new Set(reported ? (JSON.parse(reported.value) as string[]) : []);
    this.noEvidence = Object.freeze(evidenceOfStored(null, this.evidenceReported));
    for (const r of db.query<{ id: number; completeness: string }, []>('SELECT id, completeness FROM completeness_kind').all()) {
      // shared between responses: frozen (its arrays are not: a frozen array sends JSON.stringify off its fast path; callers must not change them)
      const { active_enforcement_basis, ...completeness } = JSON.parse(r.completeness) as DataCompleteness & { active_enforcement_basis?: ActiveEnforcementBasis | null };
      this.kinds[r.id] = Object.freeze(completeness);
      // an index built before the basis was stored has none: null
      this.bases[r.id] = active_enforcement_basis ?? null;
    }
  }

  /** The evidence of a stored facility.evidence text (null: nothing stored). Shared when empty: read-only. */
  evidenceOfStored(text: string | null): Evidence {
    return text ? evidenceOfStored(text, this.evidenceReported) : this.noEvidence;
  }

  /**
   * A lookup's evidence from facility.evidence as read with its row (null: nothing stored): the
   * keys ingest stored (non-empty values only) over the index's empty evidence, without building
   * the whole Evidence object (src/facilities/evidence.ts reads each field it shows as `stored ?? empty`).
   */
  storedEvidence(text: string | null): StoredEvidence {
    return { stored: text ? (JSON.parse(text) as Partial<Evidence>) : NOTHING_STORED, empty: this.noEvidence };
  }

  /** Which rule made active_enforcement true for a row's `completeness` id (null: false, or an index that does not say). */
  basis(id: number): ActiveEnforcementBasis | null {
    return this.bases[id] ?? null;
  }

  /** The data completeness a facility row's `completeness` id names. Shared between lookups: read-only. */
  completeness(id: number): DataCompleteness {
    const c = this.kinds[id];
    if (c === undefined) throw new Error(`facility.completeness ${id} names no completeness_kind row`);
    return c;
  }
}
