import type { FacilityIndex } from '../index/facility-index';
import type { PortfolioItem, PortfolioResult } from './model';

/**
 * Spec 4.2: every distinct ID once, found ones in `results` and the rest in `not_found`, both in
 * the order the IDs first appear in the request. One SQL statement for the whole batch, one more for their score changes.
 */
export function lookupPortfolio(index: FacilityIndex, ids: readonly string[], locations?: Map<string, { lat: number; lng: number }>): PortfolioResult {
  const distinct = [...new Set(ids)];
  const found = index.getBriefsWithPeers(distinct, locations);
  const changes = index.scoreChangesOf([...found.keys()]);
  const results: PortfolioItem[] = [];
  const not_found = [];
  for (const id of distinct) {
    const brief = found.get(id);
    // Rows come fresh from SQLite and are not shared: the change is set in place (no copy per item).
    if (brief) results.push(Object.assign(brief, { score_change: changes.get(id) ?? null }));
    else not_found.push(id);
  }
  return { results, total: results.length, not_found };
}
