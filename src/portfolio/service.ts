import type { FacilityIndex } from '../index/facility-index';
import type { PortfolioResult } from './model';

/**
 * Spec 4.2: every distinct ID once, found ones in `results` and the rest in `not_found`, both in
 * the order the IDs first appear in the request. One SQL statement for the whole batch.
 */
export function lookupPortfolio(index: FacilityIndex, ids: readonly string[]): PortfolioResult {
  const distinct = [...new Set(ids)];
  const found = index.getBriefsWithPeers(distinct);
  const results = [];
  const not_found = [];
  for (const id of distinct) {
    const brief = found.get(id);
    if (brief) results.push(brief);
    else not_found.push(id);
  }
  return { results, total: results.length, not_found };
}
