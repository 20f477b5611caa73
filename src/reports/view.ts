import type { ScorePoint } from '../history/score-series';
import type { FacilityRow, IndexInfo } from '../index/model';
import type { Peers } from '../index/peers';
import { explainComponents } from '../scoring/explain';
import { MAX_POINTS, type ScoreExplanation } from '../scoring/model';
import type { ReportView } from './model';
import type { DataCompleteness } from '../scoring/completeness';

const LABELS: Record<keyof typeof MAX_POINTS, string> = {
  violation_frequency: 'Violation frequency',
  penalty_severity: 'Penalty severity',
  recency: 'Recency',
  repeat_offender: 'Repeat offender',
};

/** `CITY, ST 12345` without dangling separators when ECHO leaves a field empty. */
function cityLine(row: FacilityRow): string {
  const stateZip = [row.fac_state, row.fac_zip].filter(Boolean).join(' ');
  return [row.fac_city, stateZip].filter(Boolean).join(', ');
}

/** The score model's reasons; a document with "not available" beats no document (it throws only on a bad as-of date). */
function explain(row: FacilityRow, asOf: string): ScoreExplanation {
  try {
    return explainComponents(row.score_inputs, asOf);
  } catch {
    const na = 'Explanation not available for this dataset';
    return { violation_frequency: na, penalty_severity: na, recency: na, repeat_offender: na, active_enforcement: na };
  }
}

/**
 * What a dossier prints about `row`: its stored points (the index is the source of truth for
 * scores) with the score model's one-line explanations, and the dataset's provenance.
 */
export function buildReportView(
  row: FacilityRow & { peers?: Peers | null; data_completeness?: DataCompleteness },
  info: IndexInfo,
  render: { generatedAt: number; documentId: string },
  scoreHistory: ScorePoint[] = [{ as_of: info.as_of, overall_score: row.overall_score }],
): ReportView {
  const why = explain(row, info.as_of);
  const components = (Object.keys(LABELS) as (keyof typeof LABELS)[]).map((key) => ({
    key,
    label: LABELS[key],
    score: row[key],
    max_points: MAX_POINTS[key],
    driver: why[key],
  }));
  return {
    registry_id: row.registry_id,
    fac_name: row.fac_name || 'Unnamed facility',
    address_lines: [row.fac_street, cityLine(row)].filter(Boolean),
    lat: row.lat,
    lng: row.lng,
    fac_naics: row.fac_naics,
    overall_score: row.overall_score,
    baseline: row.baseline,
    components,
    active_enforcement: row.active_enforcement,
    enforcement_reason: why.active_enforcement,
    inputs: row.score_inputs,
    peers: row.peers ?? null,
    evidence: row.evidence ?? null,
    data_completeness: row.data_completeness ?? null,
    dataset_name: info.dataset_name,
    as_of: info.as_of,
    fictitious: info.fictitious,
    score_version: info.score_version,
    sources: info.sources,
    score_history: scoreHistory,
    generated_at: render.generatedAt,
    document_id: render.documentId,
  };
}
