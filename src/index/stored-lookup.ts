import { LRUCache } from 'lru-cache';
import type { Database } from 'bun:sqlite';
import type { ScoreChange } from './history-tables/model';
import { changeEntriesStatement, scoreChangeOf } from './history-tables/score-change';
import type { ActiveEnforcementBasis, ExplanationLine, ProgramsInputs } from '../scoring/model';
import { explanationLines, type ComponentPoints } from '../scoring/explain';
import { ReasonDecoder, type StoredExplanation, type TemplateRow } from './explanation-codec';
import { EXPLANATION_AT, parseDetail, programsOfDetail } from './facility-detail';
import { programsOfArray, sharedRecordsOf, type SharedRecords } from './program-codec';
import type { FacilitySummary } from './model';
import { peersOfStored, type Peers } from './peers';
import type { BesideScore, StoredEvidence } from './beside-score';
import type { DataCompleteness } from '../scoring/completeness';

/**
 * A stored detail as a lookup uses it (shared between lookups: read-only). `lines`: the API's
 * explanation lines last built from it and the points they were built for (explanationOf).
 */
export type DecodedDetail = Readonly<{ programs: ProgramsInputs; why: StoredExplanation; lines: { points: number; value: readonly ExplanationLine[] } }>;

/** facility.detail as read: its own text, or the id of a shared_detail row. */
export type StoredDetailRef = string | number;

/** What a Starter+ lookup shows beyond the slim row, as the index stores it. Shared between lookups: read-only. */
export type StoredExtras = { programs: ProgramsInputs; peers: Peers | null; explanation: ExplanationLine[] };

/**
 * Everything a lookup answers of one facility, read in one place; src/facilities/service.ts only
 * shapes it for the caller's tier. `extras` is null when they were not asked for (Free).
 */
export type StoredAnswer = { row: FacilitySummary; scoreChange: ScoreChange; extras: StoredExtras | null; beside: StoredBeside | null };

/** What a lookup shows beside the score (./beside-score.ts): completeness on every tier, evidence with the extras (null otherwise). */
export type StoredBeside = { completeness: DataCompleteness | null; evidence: StoredEvidence | null; basis: ActiveEnforcementBasis | null };

type RawRow = Omit<FacilitySummary, 'active_enforcement'> & { active_enforcement: number | boolean; detail: StoredDetailRef; completeness: number; evidence?: string | null };

function freezePrograms(p: ProgramsInputs): ProgramsInputs {
  for (const r of [p.caa, p.cwa, p.rcra, p.sdwa]) if (r) Object.freeze(r);
  return Object.freeze(p);
}

/**
 * The reader of a lookup's stored answer: the row and its detail in one statement (the detail is a
 * column of `facility`: as a side table read by key, in a join or a subquery, it made every lookup
 * slower), the score change from the facility's history entries when the index has any
 * (./history/score-change.ts), the explanation templates and shared program records read once at
 * open, the peers (table peer_rank, a few thousand rows) kept in memory once read.
 */
export class StoredLookup {
  readonly reasons: ReasonDecoder;
  private readonly byId;
  /** byId and, for a lookup with the extras, the facility's stored evidence. */
  private readonly byIdWithEvidence;
  /** The facility's history entries for its score change; null on a first release (no history rows). */
  private readonly changeEntries;
  private readonly peersByKey;
  /** peer_rank.peers by NAICS code and score, parsed once, filled as lookups need them (bounded by peer_rank's rows). */
  private readonly peers = new Map<string, (Peers | null)[]>();
  private readonly memo: LRUCache<StoredDetailRef, DecodedDetail>;
  /** The index's program_record rows. */
  private readonly shared: SharedRecords;
  private readonly sharedDetail;

  constructor(
    db: Database,
    summaryColumns: string,
    private readonly scoreVersion: string,
    memoLimit = 4096,
    /** Completeness and evidence; without it (tests of the row alone) an answer's `beside` is null. */
    private readonly besideScore: BesideScore | null = null,
  ) {
    this.memo = new LRUCache({ max: memoLimit });
    this.shared = sharedRecordsOf(db.query<{ id: number; record: string }, []>('SELECT id, record FROM program_record').all());
    this.sharedDetail = db.prepare<{ detail: string }, [number]>('SELECT detail FROM shared_detail WHERE id = ?');
    this.reasons = new ReasonDecoder(db.query<{ id: number; pieces: string }, []>('SELECT id, pieces FROM reason_template').all().map((r): TemplateRow => [r.id, r.pieces]));
    this.byId = db.prepare<RawRow, [string]>(`SELECT ${summaryColumns}, f.detail, f.completeness FROM facility f WHERE f.registry_id = ?`);
    this.byIdWithEvidence = besideScore
      ? db.prepare<RawRow, [string]>(
          `SELECT ${summaryColumns}, f.detail, f.completeness, f.evidence FROM facility f WHERE f.registry_id = ?`,
        )
      : this.byId;
    this.changeEntries = changeEntriesStatement(db);
    this.peersByKey = db.prepare<{ peers: string }, [string, number]>('SELECT peers FROM peer_rank WHERE naics = ? AND overall_score = ?');
  }

  /**
   * The facility's answer, or null when it is not in the index: its row, its score change and, when
   * `withExtras`, its programs, peers and explanation (and, `withEvidence` too, its stored evidence). The row comes fresh from SQLite and is not
   * shared, so its flag is converted in place (no copy per lookup); it keeps its `detail` and score
   * change columns, which no response names.
   */
  answer(registryId: string, withExtras: boolean, withEvidence = false): StoredAnswer | null {
    const evidence = withExtras && withEvidence;
    const row = (evidence ? this.byIdWithEvidence : this.byId).get(registryId);
    if (!row) return null;
    row.active_enforcement = row.active_enforcement === 1;
    const scoreChange: ScoreChange = this.changeEntries ? scoreChangeOf(this.changeEntries.all(registryId), this.scoreVersion) : null;
    const answer: StoredAnswer = { row: row as FacilitySummary, scoreChange, extras: null, beside: null };
    if (withExtras) {
      const d = this.decoded(row.detail);
      answer.extras = { programs: d.programs, peers: this.peersOf(row.fac_naics, row.overall_score), explanation: this.explanationOf(d, answer.row) as ExplanationLine[] };
    }
    if (this.besideScore) {
      answer.beside = {
        completeness: this.besideScore.completeness(row.completeness),
        evidence: evidence ? this.besideScore.storedEvidence(row.evidence ?? null) : null,
        basis: this.besideScore.basis(row.completeness),
      };
    }
    return answer;
  }

  /**
   * The programs and sentences of a stored detail, parsed once per distinct detail. Most facilities
   * share theirs with many others (a clean record under the same programs: a handful of details cover
   * most rows, stored once in shared_detail, and the row holds a number), so a lookup
   * usually skips the JSON.parse, the four program objects and the sentence fill-in. The values are
   * shared between responses, so they are frozen; the memo holds the `memoLimit` most recently used
   * details (lru-cache).
   */
  decoded(ref: StoredDetailRef): DecodedDetail {
    let d = this.memo.get(ref);
    if (d === undefined) {
      const detail = parseDetail(this.textOf(ref));
      const why = Object.freeze(this.reasons.explanation(detail, EXPLANATION_AT));
      d = Object.freeze({ programs: freezePrograms(programsOfArray(detail[0], this.shared)), why, lines: { points: -1, value: [] } });
      this.memo.set(ref, d);
    }
    return d;
  }

  /**
   * The API's explanation lines of a decoded detail for a row's points, shared between lookups with
   * the same detail and points, which facilities sharing a detail nearly always have. Read-only: the
   * lines are frozen, and the array must not be changed by the caller.
   */
  explanationOf(d: DecodedDetail, row: ComponentPoints): readonly ExplanationLine[] {
    const points = ((row.violation_frequency * 32 + row.penalty_severity) * 32 + row.recency) * 32 + row.repeat_offender;
    const cached = d.lines;
    if (cached.points !== points) {
      // the lines are frozen, the array is not: a frozen (or sealed) array sends JSC's JSON.stringify
      // off its fast path, several times slower for the whole body
      cached.value = explanationLines(row, d.why).map((l) => Object.freeze(l));
      cached.points = points;
    }
    return cached.value;
  }

  /** The programs of a stored detail as new objects (full rows: reports). */
  programsOf(ref: StoredDetailRef): ProgramsInputs {
    return programsOfDetail(this.textOf(ref), this.shared);
  }

  /** A stored detail's text: the row's own, or its shared_detail row's. */
  textOf(ref: StoredDetailRef): string {
    if (typeof ref === 'string') return ref;
    const text = this.sharedDetail.get(ref)?.detail;
    if (text === undefined) throw new Error(`shared detail ${ref} is not in the index`);
    return text;
  }

  /** Distinct detail texts held decoded now (tests). */
  get memoSize(): number {
    return this.memo.size;
  }

  /** The facility's `peers`, null without a group (no NAICS code). Shared between lookups: read-only. */
  peersOf(naics: string, score: number): Peers | null {
    let byScore = this.peers.get(naics);
    if (!byScore) this.peers.set(naics, (byScore = []));
    let peers = byScore[score];
    if (peers === undefined) {
      const json = this.peersByKey.get(naics, score)?.peers;
      byScore[score] = peers = json === undefined ? null : Object.freeze(peersOfStored(json));
    }
    return peers;
  }
}
