import type { SpatialIndex } from '../area/spatial-index';
import type { FacilityIndex } from '../index/facility-index';
import type { FacilitySummary } from '../index/model';
import { CATEGORIES, coverageOf, testOf, type CategoryKey, type CategoryRule, type Coverage } from './categories';
import { bandOf, DISTANCE_BANDS, type BandKey } from './compass';
import { heldFields, programList, siteFactsOfRecord, type SiteFacts } from './facts';
import { findingOf, listedAround, ProgramLabels, type Listed, type Searched } from './findings';
import { findingsJson } from './findings-json';
import type { LocatedSite } from './locate';
import type { Finding, SiteReport, SummaryRow, UnmappedFacility } from './model';
import { sourcesOf } from './sources';

/** Where to search from and how far, plus what the report prints about the property. */
export type SiteQuery = { site: LocatedSite; name: string | null; address: string | null; distances: Record<CategoryKey, number> };

/** The categories this index can search, each with its test and distance. */
function searchedCategories(index: FacilityIndex, distances: Record<CategoryKey, number>): { searched: Searched[]; coverage: Map<CategoryKey, Coverage> } {
  const held = heldFields(index);
  const coverage = new Map(CATEGORIES.map((c) => [c.key, coverageOf(c, held)]));
  const searched: Searched[] = [];
  for (const rule of CATEGORIES) {
    const test = testOf(rule, held);
    if (test) searched.push({ rule, miles: distances[rule.key], test });
  }
  return { searched, coverage };
}

/** Who and where a facility is: the first fields of a finding. */
function identityOf(row: FacilitySummary) {
  return { registry_id: row.registry_id, fac_name: row.fac_name, fac_street: row.fac_street, fac_city: row.fac_city, fac_state: row.fac_state, fac_zip: row.fac_zip };
}

/** What the record of a facility read in full says: the last fields of an unmapped facility. */
function recordOf(score: number, activeEnforcement: boolean, facts: SiteFacts) {
  return {
    overall_score: score,
    significant_violation: facts.significant,
    active_enforcement: activeEnforcement,
    programs: programList(facts),
  };
}

/**
 * The site report (docs/site-report.md): every facility within the largest search distance is
 * tested once; it is listed when it falls under at least one category within that category's
 * distance, with every such category. Everything a finding shows is in the spatial index (its
 * site facts, score, flag, name and address: src/index/site-facts.ts), so a dense site's thousands
 * of candidates cost no SQLite read.
 */
export function buildSiteReport(index: FacilityIndex, spatial: SpatialIndex, q: SiteQuery): SiteReport {
  const { listed, assemble } = gather(index, spatial, q);
  const labels = new ProgramLabels();
  return assemble(listed.map((l) => findingOf(spatial, q.site, l, labels)));
}

/**
 * The JSON of `{ data: <the site report>, meta }` as bytes: the same text as JSON.stringify of
 * buildSiteReport's report, its findings written straight from the spatial index (./findings-json.ts).
 */
export function siteReportJson(index: FacilityIndex, spatial: SpatialIndex, q: SiteQuery, meta: unknown): Uint8Array {
  const { listed, assemble } = gather(index, spatial, q);
  // written part by part in the report's own key order (every value is defined, so none is skipped)
  const parts: Uint8Array[] = [Buffer.from('{"data":{')];
  Object.entries(assemble([])).forEach(([key, value], i) => {
    parts.push(Buffer.from(`${i === 0 ? '' : ','}${JSON.stringify(key)}:`));
    parts.push(key === 'findings' ? findingsJson(spatial, q.site, listed) : Buffer.from(JSON.stringify(value), 'utf8'));
  });
  parts.push(Buffer.from(`},"meta":${JSON.stringify(meta)}}`, 'utf8'));
  return Buffer.concat(parts);
}

/** What is listed around the site, and how the rest of the report is put around its findings. */
function gather(index: FacilityIndex, spatial: SpatialIndex, q: SiteQuery): { listed: Listed[]; assemble: (findings: Finding[]) => SiteReport } {
  const { site } = q;
  const asOf = index.info.as_of;
  const { searched, coverage } = searchedCategories(index, q.distances);
  const listed = listedAround(spatial, site, searched);
  const bands = new Map<CategoryKey, Record<BandKey, number>>(CATEGORIES.map((c) => [c.key, Object.fromEntries(DISTANCE_BANDS.map((b) => [b.key, 0])) as Record<BandKey, number>]));
  for (const l of listed) {
    const band = bandOf(l.distance);
    for (const c of l.categories) bands.get(c)![band]++;
  }
  const summary: SummaryRow[] = CATEGORIES.map((c) => {
    const counts = bands.get(c.key)!;
    const cov = coverage.get(c.key)!;
    return {
      category: c.key,
      label: c.label,
      search_distance_miles: q.distances[c.key],
      coverage: cov,
      note: coverageNote(c, cov),
      counts,
      total: Object.values(counts).reduce((a, b) => a + b, 0),
    };
  });
  const assemble = (findings: Finding[]): SiteReport => ({
    site: { lat: site.lat, lng: site.lng, located_by: site.located_by, approximate: site.approximate, name: q.name, address: q.address, zip: site.zip, matched_registry_id: site.matched_registry_id, note: site.note },
    search_distances: q.distances,
    findings,
    unmapped: unmappedOf(index, site.zip, searched, asOf),
    summary,
    sources: sourcesOf(index.info, site.located_by === 'zip_centroid', CATEGORIES.filter((c) => coverage.get(c.key) === 'not_searched')),
    dataset: { name: index.info.dataset_name, as_of: asOf, fictitious: index.info.fictitious, score_version: index.info.score_version },
  });
  return { listed, assemble };
}

function coverageNote(c: CategoryRule, cov: Coverage): string {
  const columns = `ECHO columns: ${c.columns.join(', ')}.`;
  if (cov === 'broadened') return `Broadened: ${c.broadNote}. ${columns}`;
  if (cov === 'not_searched') return `Not searched: ${c.columns.join(', ')} ${c.columns.length === 1 ? 'is' : 'are'} not in this index. ${columns}`;
  return `${c.basis}. ${columns}`;
}

/** Facilities without coordinates in the site's ZIP, with the categories whose record type they have. */
function unmappedOf(index: FacilityIndex, zip: string | null, searched: Searched[], asOf: string): SiteReport['unmapped'] {
  if (zip === null) {
    return { zip, searched: false, note: 'No ZIP for the site (give `zip` with coordinates), so facilities without coordinates were not looked for.', facilities: [] };
  }
  const rows = index.unmappedInZip(zip);
  if (rows === null) {
    return { zip, searched: false, note: `This index has no search tables to find the facilities of ZIP ${zip} by, so facilities without coordinates were not looked for.`, facilities: [] };
  }
  const facilities: UnmappedFacility[] = [];
  for (const summary of rows) {
    const row = index.getDetail(summary.registry_id);
    if (!row) continue;
    const facts = siteFactsOfRecord(row.score_inputs, row.evidence, asOf);
    // adjoining is a distance, not a record type: with no distance it says nothing
    facilities.push({ ...identityOf(row), ...recordOf(row.overall_score, row.active_enforcement, facts), categories: searched.filter((s) => s.rule.key !== 'adjoining' && s.test(facts)).map((s) => s.rule.key) });
  }
  const n = facilities.length;
  return { zip, searched: true, note: `${n} ${n === 1 ? 'facility' : 'facilities'} in ZIP ${zip} without coordinates: their distance from the site is unknown.`, facilities };
}
