import type { IndexInfo } from '../index/model';
import { indexIdentity } from '../index/identity';
import { ReportCache } from '../reports/cache';
import type { CacheOutcome } from '../reports/model';
import type { SiteQuery } from './service';
import { VERSION } from '../version';

/** Bumped when the site report's layout or wording changes between releases; a new product version is a new key anyway. */
export const SITE_REPORT_LAYOUT_VERSION = 'site-report-5';

/**
 * The cache key of a site report PDF: the site (already rounded to 5 decimals), the search
 * distances and the index's identity (src/index/identity.ts: a new build is a new key), plus
 * everything else the document prints about the property (name, address, how it was located, ZIP).
 * The accuracy limit and the parcel are in it too; the report date is not: a cached PDF is the document of its generation day.
 * Keys live in the dossier cache's directory; the layout version keeps them apart from dossiers.
 * `version`: the product's, so an upgrade that rewords the report never serves the old wording.
 */
export function siteReportKey(q: SiteQuery, info: IndexInfo, version = VERSION): string {
  const s = q.site;
  const site = [s.lat, s.lng, s.located_by, s.zip, s.matched_registry_id, q.name, q.address];
  return ReportCache.keyOf([SITE_REPORT_LAYOUT_VERSION, version, indexIdentity(info), JSON.stringify([site, q.distances, q.approximateMeters ?? null, q.boundary ?? null])]);
}

/**
 * The PDF of the report of `query`: from the cache when a fresh copy exists (24 h, the dossier's
 * cache and rules), else rendered by `render` (on a render worker: src/render/jobs.ts, stamped with
 * the time and this document ID) and stored. A cache that cannot be read or written (a full or
 * read-only disk) only costs a render.
 */
export async function exportSiteReport(input: {
  query: SiteQuery;
  /** Renders the report with this document ID: called only on a cache miss. */
  render: (documentId: string) => Promise<Uint8Array>;
  info: IndexInfo;
  cache: ReportCache | null;
}): Promise<{ pdf: Uint8Array; cache: CacheOutcome }> {
  const key = siteReportKey(input.query, input.info);
  const cached = input.cache ? await input.cache.get(key).catch(() => null) : null;
  if (cached) return { pdf: cached, cache: 'HIT' };
  const pdf = await input.render(key.slice(0, 16));
  const stored = input.cache ? await input.cache.put(key, pdf).catch(() => false) : false;
  return { pdf, cache: stored ? 'MISS' : 'BYPASS' };
}
