import type { Database } from 'bun:sqlite';
import { inputsOfStored } from './inputs-codec';
import type { Evidence } from './evidence';
import type { DataCompleteness } from '../scoring/completeness';
import type { ActiveEnforcementBasis } from '../scoring/model';
import type { BesideScore } from './beside-score';
import type { FacilityRow, FacilitySummary, Location } from './model';
import { peersOfStored, type Peers } from './peers';
import type { StoredDetailRef, StoredLookup } from './stored-lookup';

/** The slim row's columns of table `facility` as `f`: everything a FacilitySummary holds. */
export const SUMMARY_COLUMNS = `f.registry_id, f.fac_name, f.fac_street, f.fac_city, f.fac_state, f.fac_zip, f.lat, f.lng, f.fac_naics, f.overall_score,
  f.active_enforcement, f.baseline, f.violation_frequency, f.penalty_severity, f.recency, f.repeat_offender, f.score_hash`;
export type RawSummary = Omit<FacilitySummary, 'active_enforcement'> & { active_enforcement: number };

// Rows come fresh from SQLite and are not shared, so the flag is converted in place (no copy per lookup).
export function toSummary(r: RawSummary): FacilitySummary {
  const s = r as unknown as FacilitySummary;
  s.active_enforcement = (r.active_enforcement as number) === 1;
  return s;
}

/** A stored place as the API gives it: null when the facility has no usable coordinates. */
export function locationOf(r: { lat: number | null; lng: number | null }): Location {
  return r.lat === null || r.lng === null ? null : { lat: r.lat, lng: r.lng };
}

/** Peers columns of peer_rank `p` (schema.ts PEER_DDL), as read beside a facility; all null without a group. */
export const PEER_COLUMNS = 'p.peers';
export type RawPeers = { peers: string | null };

export function peersOf(r: RawPeers): Peers | null {
  return r.peers === null ? null : peersOfStored(r.peers);
}

/** A full row with its industry peers (null: no NAICS code). */
export type FacilityDetail = FacilityRow & { evidence: Evidence; peers: Peers | null; data_completeness: DataCompleteness; active_enforcement_basis: ActiveEnforcementBasis | null };

/**
 * Reads of one facility by registry ID or address key (reports, the demo, the history's baseline);
 * statements prepared once. The lookup's own read is ./stored-lookup.ts.
 */
export class FacilityReads {
  private readonly summaryById;
  private readonly inputsById;
  private readonly detailById;
  private readonly peersOfScore;
  private readonly byAddressKey;
  private readonly firstById;

  constructor(
    db: Database,
    private readonly inputsKeys: readonly string[],
    private readonly stored: StoredLookup,
    private readonly beside: BesideScore,
  ) {
    this.summaryById = db.prepare<RawSummary, [string]>(`SELECT ${SUMMARY_COLUMNS} FROM facility f WHERE f.registry_id = ?`);
    // separate keyed reads: on the sample, one 4-table join was slower than these together
    this.inputsById = db.prepare<{ score_inputs: string }, [string]>('SELECT score_inputs FROM facility_inputs WHERE registry_id = ?');
    // what only the full row needs, in one read of the row (a site report reads hundreds of full rows)
    this.detailById = db.prepare<{ detail: StoredDetailRef; completeness: number; evidence: string | null }, [string]>(
      'SELECT detail, completeness, evidence FROM facility WHERE registry_id = ?',
    );
    this.peersOfScore = db.prepare<RawPeers, [string, number]>(`SELECT ${PEER_COLUMNS} FROM peer_rank p WHERE p.naics = ? AND p.overall_score = ?`);
    this.firstById = db.prepare<RawSummary, [number]>(`SELECT ${SUMMARY_COLUMNS} FROM facility f ORDER BY f.registry_id LIMIT ?`);
    this.byAddressKey = db.prepare<RawSummary, [string]>(
      `SELECT ${SUMMARY_COLUMNS} FROM facility_address a JOIN facility f ON f.registry_id = a.registry_id WHERE a.address_key = ? ORDER BY f.registry_id`,
    );
  }

  /** The row without its score inputs: what a lookup returns, without parsing JSON it will not use. */
  summary(registryId: string): FacilitySummary | null {
    const r = this.summaryById.get(registryId);
    return r ? toSummary(r) : null;
  }

  /** The full row (score inputs parsed, programs as new objects) with its industry peers: what a report explains. */
  detail(registryId: string): FacilityDetail | null {
    const summary = this.summary(registryId);
    if (!summary) return null;
    const inputs = inputsOfStored(this.inputsById.get(registryId)!.score_inputs, this.inputsKeys);
    const stored = this.detailById.get(registryId)!;
    inputs.programs = this.stored.programsOf(stored.detail);
    const peers = this.peersOfScore.get(summary.fac_naics, summary.overall_score);
    const data_completeness = this.beside.completeness(stored.completeness);
    const active_enforcement_basis = summary.active_enforcement ? this.beside.basis(stored.completeness) : null;
    return Object.assign(summary, { score_inputs: inputs, evidence: this.beside.evidenceOfStored(stored.evidence), peers: peers ? peersOf(peers) : null, data_completeness, active_enforcement_basis });
  }

  /** index_meta `evidence_reported`: the evidence keys every source had a column for (./evidence.ts). */
  get evidenceReported(): ReadonlySet<string> {
    return this.beside.evidenceReported;
  }

  /** The first `limit` facilities in registry ID order. */
  first(limit: number): FacilitySummary[] {
    return this.firstById.all(limit).map(toSummary);
  }

  /** Facilities filed under a normalised address key (src/demo/address.ts), lowest registry ID first. */
  byAddress(key: string): FacilitySummary[] {
    return this.byAddressKey.all(key).map(toSummary);
  }
}
