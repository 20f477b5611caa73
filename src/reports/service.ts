import { join } from 'node:path';
import type { Config } from '../config';
import type { Log } from '../log';
import type { FacilitySummary, IndexInfo } from '../index/model';
import { REPORT_TTL_MS, ReportCache } from './cache';
import type { CacheOutcome } from './model';
import { VERSION } from '../version';

/** Bumped when the dossier's layout or wording changes between releases; a new product version is a new key anyway (reportKey). */
export const REPORT_LAYOUT_VERSION = 'dossier-4';

/** The process's report cache, in the directory from config: explicit, `off` (no cache), or `<stateDir>/report-cache`. Creates nothing on disk until the first store. */
export function openReportCache(config: Config, clock: () => number, log: Log): ReportCache | null {
  const dir = config.reportCacheDir ?? join(config.stateDir, 'report-cache');
  return dir === 'off' ? null : new ReportCache(dir, clock, log, REPORT_TTL_MS, config.reportCacheMaxMb * 1024 * 1024, config.reportCacheMemoryMb * 1024 * 1024, undefined, config.reportCacheMinFreeMb * 1024 * 1024);
}

/**
 * What a dossier depends on besides the generation stamp: the documented (registry_id, score_hash),
 * plus everything else it prints (identity, dataset, layout version), so a renamed facility or a
 * new dataset never gets a stale document even when its score inputs are unchanged. `releases`: how
 * many releases the index holds (the score chart), so a rebuilt index with more history is a new document.
 * `version`: the product's, so an upgrade that rewords the document never serves the old wording.
 */
export function reportKey(row: FacilitySummary, info: IndexInfo, releases = 1, version = VERSION): string {
  const printed = [row.fac_name, row.fac_street, row.fac_city, row.fac_state, row.fac_zip, row.lat, row.lng, row.fac_naics];
  const scored = [row.overall_score, row.baseline, row.violation_frequency, row.penalty_severity, row.recency, row.repeat_offender, row.active_enforcement];
  const dataset = [info.dataset_name, info.as_of, info.fictitious, info.score_version, info.sources];
  return ReportCache.keyOf([REPORT_LAYOUT_VERSION, version, row.registry_id, row.score_hash, JSON.stringify([printed, scored, dataset, releases])]);
}

/**
 * The ID a dossier prints: the first 16 hex digits of its cache key (the entry's file name starts
 * with it). A cached PDF is handed to every account that exports the facility for 24 h, so nothing
 * of the request that rendered it (least of all a caller-chosen X-Request-Id) may be printed in it.
 */
export function documentIdOf(key: string): string {
  return key.slice(0, 16);
}

/**
 * The dossier of `facility`: from the cache when a fresh copy exists, else rendered now by `render`
 * (on a render worker: src/render/jobs.ts, stamped with the render time and the document ID) and
 * stored. A cache that cannot be read or written only costs a render; it never fails the request.
 */
export async function exportReport(input: {
  facility: FacilitySummary;
  /** Renders the dossier with this document ID: called only on a cache miss. */
  render: (documentId: string) => Promise<Uint8Array>;
  /** How many releases the index holds (part of the cache key). */
  releases: number;
  info: IndexInfo;
  cache: ReportCache | null;
}): Promise<{ pdf: Uint8Array; cache: CacheOutcome }> {
  const key = reportKey(input.facility, input.info, input.releases);
  const cached = input.cache ? await input.cache.get(key).catch(() => null) : null;
  if (cached) return { pdf: cached, cache: 'HIT' };
  const pdf = await input.render(documentIdOf(key));
  const stored = input.cache ? await input.cache.put(key, pdf).catch(() => false) : false;
  return { pdf, cache: stored ? 'MISS' : 'BYPASS' };
}
