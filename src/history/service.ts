import { AppError } from '../errors';
import type { FacilityIndex } from '../index/facility-index';
import type { HistoryEntry } from '../index/history-tables/model';
import type { FacilityHistory, HistoryItem } from './model';

function toItem(e: HistoryEntry, before: HistoryEntry | undefined): HistoryItem {
  const present = e.overall_score !== null;
  return {
    as_of: e.as_of,
    score_method: e.score_version,
    change: e.change,
    overall_score: e.overall_score,
    components: present
      ? { violation_frequency: e.violation_frequency!, penalty_severity: e.penalty_severity!, recency: e.recency!, repeat_offender: e.repeat_offender! }
      : null,
    active_enforcement: e.active_enforcement,
    score_delta: present && before?.overall_score != null ? e.overall_score! - before.overall_score : null,
  };
}

/**
 * The facility's history, newest first, or 404 NOT_FOUND when it was never in any release. A facility
 * removed from the data still has its history (ending in 'removed'): a portfolio holder needs to see that.
 */
export function facilityHistory(index: FacilityIndex, registryId: string): FacilityHistory {
  const entries = index.historyOf(registryId);
  if (entries.length === 0) throw new AppError('NOT_FOUND', `No facility with registry ID ${registryId} is in the index or its history`);
  return {
    registry_id: registryId,
    in_latest_release: entries[0]!.change !== 'removed',
    entries: entries.map((e, i) => toItem(e, entries[i + 1])),
  };
}
