/**
 * The heavy answers the render pool's workers make (./pool.ts), each from an index the worker opened
 * itself (./source.ts) and plain values: the bytes of the answer's body. Every job is a function of
 * its input and the index, so it runs the same on any worker.
 */
import type { SpatialIndex } from '../area/spatial-index';
import type { Location } from '../exports/geojson';
import { exportBody } from '../exports/response';
import { findFacilityRow } from '../facilities/service';
import { scoreSeries } from '../history/score-series';
import type { FacilityIndex } from '../index/facility-index';
import { buildReportView } from '../reports/view';
import { Finding } from '../site-report/model';
import { datasetMeta } from '../shared/envelope';
import { buildSiteReport, type SiteQuery } from '../site-report/service';

export type RenderJob =
  /** The site report's JSON envelope with `"meta":null`: the caller writes the request's meta in (`withMeta`). */
  | { kind: 'site-json'; query: SiteQuery }
  /** The site report's findings as CSV or GeoJSON. */
  | { kind: 'site-export'; query: SiteQuery; format: 'csv' | 'geojson' }
  /** The site report as a PDF, stamped with the time and its document ID. */
  | { kind: 'site-pdf'; query: SiteQuery; now: number; documentId: string }
  /** A facility's dossier as a PDF. */
  | { kind: 'dossier-pdf'; registryId: string; now: number; documentId: string };

/** What a worker holds open for the jobs of one index. */
export type OpenSource = { index: FacilityIndex; spatial: SpatialIndex | null };

const encoder = new TextEncoder();

function spatialOf(source: OpenSource): SpatialIndex {
  // the pool is handed a spatial index for every app whose area search is ready, and site jobs are only sent then
  if (!source.spatial) throw new Error('no spatial index was given for a site report job');
  return source.spatial;
}

/** The body of `job`'s answer. */
export async function runJob(source: OpenSource, job: RenderJob): Promise<Uint8Array> {
  switch (job.kind) {
    case 'site-json':
      return encoder.encode(JSON.stringify({ data: buildSiteReport(source.index, spatialOf(source), job.query), meta: null }));
    case 'site-export': {
      const report = buildSiteReport(source.index, spatialOf(source), job.query);
      const locations = new Map<string, Location>(report.findings.map((f) => [f.registry_id, f.location]));
      return encoder.encode(exportBody(job.format, { items: report.findings, locations, columns: Object.keys(Finding.properties), dataset: datasetMeta(source.index.info) }));
    }
    case 'site-pdf': {
      const { renderSiteReport } = await import('../site-report/document');
      const report = buildSiteReport(source.index, spatialOf(source), job.query);
      return renderSiteReport({ report, generated_at: job.now, document_id: job.documentId });
    }
    case 'dossier-pdf': {
      const { renderReport } = await import('../reports/document');
      const row = findFacilityRow(source.index, job.registryId);
      const history = scoreSeries(source.index.historyOf(job.registryId), source.index.releases());
      return renderReport(buildReportView(row, source.index.info, { generatedAt: job.now, documentId: job.documentId }, history));
    }
  }
}

const NULL_META_END = 'null}'.length;

/**
 * A site-json job's body with the request's `meta` written in place of its `null` (the worker does
 * not know it: response_time_ms counts the wait for a worker), as two parts: the body up to the
 * `null`, uncopied, and the meta.
 */
export function withMeta(body: Uint8Array, meta: unknown): Uint8Array[] {
  return [body.subarray(0, body.length - NULL_META_END), encoder.encode(`${JSON.stringify(meta)}}`)];
}
