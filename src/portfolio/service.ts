import type { FacilityIndex } from '../index/facility-index';
import type { PortfolioItem, PortfolioResult } from './model';

/**
 * The portfolio (docs/area-and-portfolio.md): every distinct ID once, found ones in `results` and the rest in `not_found`, both in
 * the order the IDs first appear in the request. One SQL statement for the whole batch, score changes included.
 */
export function lookupPortfolio(index: FacilityIndex, ids: readonly string[], locations?: Map<string, { lat: number; lng: number }>): PortfolioResult {
  const distinct = [...new Set(ids)];
  const found = index.getBriefsWithPeers(distinct, locations);
  const results: PortfolioItem[] = [];
  const not_found = [];
  for (const id of distinct) {
    const item = found.get(id);
    if (item) results.push(item);
    else not_found.push(id);
  }
  return { results, total: results.length, not_found };
}
