import { roundMiles } from '../area/service';
import { registryIdAt, type SpatialIndex } from '../area/spatial-index';
import { addressAt, nameAt } from '../area/text-bytes';
import { eachWithin } from '../area/spatial-search';
import type { FacilityIndex } from '../index/facility-index';
import type { FacilitySummary } from '../index/model';
import { PROGRAM_BITS, SITE_BIT, siteFactsOfBits } from '../index/site-facts';
import { CATEGORIES, coverageOf, testOf, type CategoryKey, type CategoryRule, type Coverage } from './categories';
import { bandOf, bearingDegrees, directionOf, DISTANCE_BANDS, roundBearing, type BandKey } from './compass';
import { heldFields, programList, siteFactsOfRecord, type SiteFacts } from './facts';
import type { LocatedSite } from './locate';
import type { Finding, SiteReport, SummaryRow, UnmappedFacility } from './model';
import { sourcesOf } from './sources';

/** Where to search from and how far, plus what the report prints about the property. */
export type SiteQuery = { site: LocatedSite; name: string | null; address: string | null; distances: Record<CategoryKey, number> };

type Searched = { rule: CategoryRule; miles: number; test: (f: SiteFacts) => boolean };

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
  const { site } = q;
  const asOf = index.info.as_of;
  const { searched, coverage } = searchedCategories(index, q.distances);
  const findings: Finding[] = [];
  const bands = new Map<CategoryKey, Record<BandKey, number>>(CATEGORIES.map((c) => [c.key, Object.fromEntries(DISTANCE_BANDS.map((b) => [b.key, 0])) as Record<BandKey, number>]));

  // the programs' labels of one combination of program bits, shared by the findings that have it
  const programsOf = new Map<number, string[]>();
  for (const { pos: p, distance, categories } of listed(spatial, site, searched)) {
    const band = bandOf(distance);
    for (const c of categories) bands.get(c)![band]++;
    const bearing = bearingDegrees(site.lat, site.lng, spatial.lat[p]!, spatial.lng[p]!);
    const address = addressAt(spatial, p);
    const bits = spatial.site[p]!;
    let programs = programsOf.get(bits & PROGRAM_BITS);
    if (programs === undefined) programsOf.set(bits & PROGRAM_BITS, (programs = programList(siteFactsOfBits(bits))));
    // fields in the schema's order (the JSON's order), as recordOf gives them for an unmapped facility
    findings.push({
      registry_id: registryIdAt(spatial, p),
      fac_name: nameAt(spatial, p),
      fac_street: address.street,
      fac_city: address.city,
      fac_state: spatial.states[spatial.state[p]!]!,
      fac_zip: address.zip,
      distance_miles: roundMiles(distance),
      bearing_degrees: roundBearing(bearing),
      direction: directionOf(distance, bearing),
      categories,
      overall_score: spatial.score[p]!,
      significant_violation: (bits & SITE_BIT.significant) !== 0,
      active_enforcement: (spatial.flags[p]! & 1) === 1,
      programs,
    });
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

  return {
    site: { lat: site.lat, lng: site.lng, located_by: site.located_by, approximate: site.approximate, name: q.name, address: q.address, zip: site.zip, matched_registry_id: site.matched_registry_id, note: site.note },
    search_distances: q.distances,
    findings,
    unmapped: unmappedOf(index, site.zip, searched, asOf),
    summary,
    sources: sourcesOf(index.info, site.located_by === 'zip_centroid', CATEGORIES.filter((c) => coverage.get(c.key) === 'not_searched')),
    dataset: { name: index.info.dataset_name, as_of: asOf, fictitious: index.info.fictitious, score_version: index.info.score_version },
  };
}

type Listed = { pos: number; distance: number; categories: CategoryKey[] };

/**
 * The facilities within the searched distances that fall under at least one category there, with
 * those categories, nearest first (then registry ID). A dense site has thousands of facilities
 * within a mile and lists a fraction: each is tested from its site-fact bits as the walk meets it,
 * and only those listed are sorted.
 */
function listed(spatial: SpatialIndex, site: { lat: number; lng: number }, searched: Searched[]): Listed[] {
  const out: Listed[] = [];
  if (searched.length === 0) return out;
  const maxMiles = Math.max(...searched.map((s) => s.miles));
  // the same bits within reach of the same categories give the same list: memoised per (bits, reach)
  const memo = new Map<number, CategoryKey[]>();
  eachWithin(spatial, { lat: site.lat, lng: site.lng, radiusMiles: maxMiles, state: null, activeEnforcement: null }, (pos, distance) => {
    let reach = 0;
    for (let k = 0; k < searched.length; k++) if (distance <= searched[k]!.miles) reach |= 1 << k;
    if (reach === 0) return;
    const bits = spatial.site[pos]!;
    const key = bits * (1 << searched.length) + reach;
    let categories = memo.get(key);
    if (categories === undefined) {
      const facts = siteFactsOfBits(bits);
      memo.set(key, (categories = searched.filter((s, k) => (reach & (1 << k)) !== 0 && s.test(facts)).map((s) => s.rule.key)));
    }
    if (categories.length > 0) out.push({ pos, distance, categories });
  });
  return out.sort((a, b) => a.distance - b.distance || spatial.rank[a.pos]! - spatial.rank[b.pos]!);
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
