import { roundMiles } from '../area/service';
import { registryIdAt, type SpatialIndex } from '../area/spatial-index';
import { textsOf } from '../area/text-bytes';
import { eachWithin } from '../area/spatial-search';
import type { FacilityIndex } from '../index/facility-index';
import type { FacilitySummary, Location } from '../index/model';
import { PROGRAM_BITS, SITE_BIT, SITE_FACT_VALUES, siteFactsOfBits } from '../index/site-facts';
import { CATEGORIES, coverageOf, testOf, type CategoryKey, type CategoryRule, type Coverage } from './categories';
import { bandIndexOf, bearingDegrees, directionOf, DISTANCE_BANDS, roundBearing, type BandKey } from './compass';
import { heldFields, programList, siteFactsOfRecord, type SiteFacts } from './facts';
import type { LocatedSite } from './locate';
import type { Finding, SiteReport, SummaryRow, UnmappedFacility } from './model';
import { sourcesOf } from './sources';
import { findingDetailOf } from './finding-detail';

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
 * The site report's parts (docs/site-report.md): every facility within the largest search distance
 * is tested once; it is listed when it falls under at least one category within that category's
 * distance, with every such category. Everything a finding shows is in the spatial index (its
 * site facts, score, flag, name and address: src/index/site-facts.ts), so a dense site's thousands
 * of candidates cost no SQLite read.
 */
function siteReportParts(index: FacilityIndex, spatial: SpatialIndex, q: SiteQuery): { report: SiteReport; listed: Listed[] } {
  const { site } = q;
  const asOf = index.info.as_of;
  const { searched, coverage } = searchedCategories(index, q.distances);
  const list = listed(spatial, site, searched);
  // counts per (category, band), as numbers while counting: one record per category at the end
  const bandCounts = new Uint32Array(CATEGORIES.length * DISTANCE_BANDS.length);
  for (const { distance, listing } of list) {
    const band = bandIndexOf(distance);
    for (const c of listing.at) bandCounts[c * DISTANCE_BANDS.length + band]!++;
  }

  const summary: SummaryRow[] = CATEGORIES.map((c, ci) => {
    const counts = bandRecord(bandCounts, ci);
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

  const report: SiteReport = {
    site: { lat: site.lat, lng: site.lng, located_by: site.located_by, approximate: site.approximate, name: q.name, address: q.address, zip: site.zip, matched_registry_id: site.matched_registry_id, note: site.note },
    search_distances: q.distances,
    findings: [],
    unmapped: unmappedOf(index, site.zip, searched, asOf),
    summary,
    sources: sourcesOf(index.info, site.located_by === 'zip_centroid', CATEGORIES.filter((c) => coverage.get(c.key) === 'not_searched')),
    dataset: { name: index.info.dataset_name, as_of: asOf, fictitious: index.info.fictitious, score_version: index.info.score_version },
  };
  return { report, listed: list };
}

/**
 * The site report, every form's (JSON, CSV, GeoJSON, PDF). `locations`, when given, receives each
 * finding's coordinates (the export forms), from the spatial index too.
 */
export function buildSiteReport(index: FacilityIndex, spatial: SpatialIndex, q: SiteQuery, locations?: Map<string, Location>): SiteReport {
  const { report, listed: list } = siteReportParts(index, spatial, q);
  const findings: Finding[] = new Array(list.length);
  const texts = textsOf(spatial);
  const asOf = index.info.as_of;
  // the programs' labels of one combination of program bits, shared by the findings that have it
  const programsOf = new Map<number, string[]>();
  for (let i = 0; i < list.length; i++) {
    const { pos: p, distance, bearing, listing } = list[i]!;
    const address = texts.address(p);
    const bits = spatial.site[p]!;
    let programs = programsOf.get(bits & PROGRAM_BITS);
    if (programs === undefined) programsOf.set(bits & PROGRAM_BITS, (programs = programList(siteFactsOfBits(bits))));
    // fields in the schema's order (the JSON's order), as recordOf gives them for an unmapped facility
    const registry_id = registryIdAt(spatial, p);
    locations?.set(registry_id, { lat: spatial.lat[p]!, lng: spatial.lng[p]! });
    findings[i] = {
      registry_id,
      fac_name: texts.name(p),
      fac_street: address.street,
      fac_city: address.city,
      fac_state: spatial.states[spatial.state[p]!]!,
      fac_zip: address.zip,
      distance_miles: roundMiles(distance),
      bearing_degrees: roundBearing(bearing),
      direction: directionOf(distance, bearing),
      categories: listing.keys,
      overall_score: spatial.score[p]!,
      significant_violation: (bits & SITE_BIT.significant) !== 0,
      active_enforcement: (spatial.flags[p]! & 1) === 1,
      programs,
      // the file's IDs and dates are not in the spatial index: one point read of the stored evidence per finding
      ...findingDetailOf(index.evidenceOf(registry_id), asOf),
    };
  }
  report.findings = findings;
  return report;
}

/** The categories a facility is listed under: their keys (what a finding shows) and their places in CATEGORIES (what the summary counts). */
export type Listing = { keys: CategoryKey[]; at: number[] };
/**
 * A facility listed: its position in the spatial index, its exact distance and initial bearing from
 * the site, and its categories. The bearing is taken as the walk meets the facility, while its
 * coordinates are in cache: the findings are written nearest first, an order that jumps between cells.
 */
export type Listed = { pos: number; distance: number; bearing: number; listing: Listing };

/** The summary's counts of category `ci`, one per band, from the (category, band) counts. */
function bandRecord(counts: Uint32Array, ci: number): Record<BandKey, number> {
  const at = ci * DISTANCE_BANDS.length;
  return Object.fromEntries(DISTANCE_BANDS.map((b, k) => [b.key, counts[at + k]!])) as Record<BandKey, number>;
}

/**
 * The facilities within the searched distances that fall under at least one category there, with
 * those categories, nearest first (then registry ID). A dense site has thousands of facilities
 * within a mile and lists a fraction: each facility's reach (the largest distance of the
 * categories its site-fact bits fall under) is known from its bits, so the walk computes a
 * distance only for those whose latitude is within it, and only those listed are sorted.
 */
function listed(spatial: SpatialIndex, site: { lat: number; lng: number }, searched: readonly Searched[]): Listed[] {
  const out: Listed[] = [];
  if (searched.length === 0) return out;
  const maxMiles = Math.max(...searched.map((s) => s.miles));
  const miles = searched.map((s) => s.miles);
  const place = searched.map((s) => CATEGORIES.indexOf(s.rule));
  const bitsOf = spatial.site;
  // by site-fact bits, learnt as the walk meets them: which searched categories' record types the
  // bits have (bit k: searched[k]; -1 not yet learnt), and the largest of their distances (-1: none)
  const typesOf = new Int32Array(SITE_FACT_VALUES).fill(-1);
  const reachOfBits = new Float64Array(SITE_FACT_VALUES);
  const learn = (bits: number): void => {
    const facts = siteFactsOfBits(bits);
    let types = 0, reach = -1;
    for (let k = 0; k < searched.length; k++) {
      if (!searched[k]!.test(facts)) continue;
      types |= 1 << k;
      reach = Math.max(reach, miles[k]!);
    }
    typesOf[bits] = types;
    reachOfBits[bits] = reach;
  };
  const reachOf = (pos: number): number => {
    const bits = bitsOf[pos]!;
    if (typesOf[bits]! < 0) learn(bits);
    return reachOfBits[bits]!;
  };
  // the listing of each set of searched categories (record type and distance both met), made once
  const listings: (Listing | undefined)[] = new Array(1 << searched.length);
  const query = { lat: site.lat, lng: site.lng, radiusMiles: maxMiles, state: null, activeEnforcement: null };
  eachWithin(
    spatial,
    query,
    (pos, distance) => {
      // within the facility's reach: at least one of its categories is within its distance
      const types = typesOf[bitsOf[pos]!]!;
      let set = 0;
      for (let k = 0; k < miles.length; k++) if ((types & (1 << k)) !== 0 && distance <= miles[k]!) set |= 1 << k;
      let listing = listings[set];
      if (listing === undefined) {
        const ks = searched.map((_, k) => k).filter((k) => (set & (1 << k)) !== 0);
        listings[set] = listing = { keys: ks.map((k) => searched[k]!.rule.key), at: ks.map((k) => place[k]!) };
      }
      out.push({ pos, distance, bearing: bearingDegrees(site.lat, site.lng, spatial.lat[pos]!, spatial.lng[pos]!), listing });
    },
    reachOf,
  );
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
    return { zip, searched: false, note: 'No ZIP for the site (give a ZIP with the coordinates), so facilities without coordinates were not looked for.', facilities: [] };
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
