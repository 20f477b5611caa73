import { roundMiles } from '../area/service';
import { registryIdAt, type SpatialIndex } from '../area/spatial-index';
import { textsOf } from '../area/text-bytes';
import { eachWithin } from '../area/spatial-search';
import type { FacilityIndex } from '../index/facility-index';
import { PROGRAM_BITS, SITE_BIT, SITE_FACT_VALUES, siteFactsOfBits } from '../index/site-facts';
import { CATEGORIES, coverageOf, testOf, type CategoryKey, type CategoryRule, type Coverage } from './categories';
import { bandIndexOf, bearingDegrees, compassPoint, DISTANCE_BANDS, ON_SITE_MILES, roundBearing, type BandKey } from './compass';
import { parcelOf, distanceToParcel, type Parcel } from './boundary';
import { polygonsOf, type SiteBoundary } from './request';
import { haversineMiles } from '../area/geo';
import { heldFields, programList, type SiteFacts } from './facts';
import type { LocatedSite } from './locate';
import type { Finding, SiteReport, SummaryRow, UnmappedFacility, Warning } from './model';
import { zip5 } from '../address/address';
import { approximateLocationReason, APPROXIMATE_LOCATION_METERS, isAreaCentreMethod } from '../index/location-quality';
import { nearestZip, zipsWithin } from './zip-centres';
import { sourcesOf } from './sources';
import { findingReaders } from './finding-detail';
import { areaArrays } from '../index/declared-columns';
import { datasetMeta } from '../shared/envelope';
import { unplacedInZips } from '../index/area/unplaced';

/**
 * Where to search from and how far, plus what the report prints about the property.
 * `approximateMeters`: a facility whose stated accuracy is coarser is never placed (default
 * APPROXIMATE_LOCATION_METERS); `reportDate` (YYYY-MM-DD, default today, UTC): what the data's age is measured to.
 */
export type SiteQuery = {
  site: LocatedSite; name: string | null; address: string | null; distances: Record<CategoryKey, number>;
  approximateMeters?: number; reportDate?: string;
  /** The parcel (docs/site-report.md, "A parcel"): distances from it, directions from `site`. */
  boundary?: SiteBoundary | null;
};

/** Where distances are measured from: a point, or a parcel with its bounding circle about the site point (miles). */
type From = { lat: number; lng: number; parcel: Parcel | null; radius: number };

function fromOf(site: { lat: number; lng: number }, boundary: SiteBoundary | null | undefined): From {
  if (!boundary) return { lat: site.lat, lng: site.lng, parcel: null, radius: 0 };
  const parcel = parcelOf(polygonsOf(boundary));
  let radius = 0;
  for (const rings of parcel.polygons) for (const ring of rings) for (const [lng, lat] of ring) radius = Math.max(radius, haversineMiles(site.lat, site.lng, lat!, lng!));
  // a hair more than the farthest vertex: an edge's points are no farther than its ends at parcel scale
  return { lat: site.lat, lng: site.lng, parcel, radius: radius * (1 + 1e-9) + 1e-9 };
}

/** On the property: inside the parcel, or within ON_SITE_MILES of a point site. */
function onSite(from: From, distance: number): boolean {
  return from.parcel ? distance === 0 : distance < ON_SITE_MILES;
}

/** Miles beyond the largest search distance within which a ZIP's centre puts its unplaced facilities on the list. */
export const UNMAPPED_ZIP_MARGIN_MILES = 2;

type Searched = { rule: CategoryRule; miles: number; test: (f: SiteFacts) => boolean };

/** The categories this index can search, each with its test and distance. */
function searchedCategories(index: FacilityIndex, distances: Record<CategoryKey, number>, approximateSite: boolean): { searched: Searched[]; coverage: Map<CategoryKey, Coverage> } {
  const held = heldFields(index);
  const coverage = new Map(CATEGORIES.map((c) => [c.key, withheld(c, approximateSite) ? 'not_searched' : coverageOf(c, held)]));
  const searched: Searched[] = [];
  for (const rule of CATEGORIES) {
    const test = withheld(rule, approximateSite) ? null : testOf(rule, held);
    if (test) searched.push({ rule, miles: distances[rule.key], test });
  }
  return { searched, coverage };
}

/** A site placed at its ZIP's centre can be a mile from the property: nothing is claimed adjoining it (or on it). */
function withheld(rule: CategoryRule, approximateSite: boolean): boolean {
  return approximateSite && (rule.key === 'adjoining' || rule.key === 'on_site');
}

const WITHHELD_NOTE = 'Withheld: the site is placed at the centre of its ZIP, so no facility is claimed on site or adjoining; give lat and lng (or an address the index knows) for them.';

/**
 * The site report's parts (docs/site-report.md): every facility within the largest search distance
 * is tested once; it is listed when it falls under at least one category within that category's
 * distance, with every such category. Everything a finding shows is in the spatial index (its
 * site facts, score, flag, name and address: src/index/site-facts.ts), so a dense site's thousands
 * of candidates cost no SQLite read.
 */
function siteReportParts(index: FacilityIndex, spatial: SpatialIndex, q: SiteQuery): { report: SiteReport; listed: Listed[]; from: From } {
  const site = withZip(q.site);
  const approximateSite = site.located_by === 'zip_centroid';
  const { searched, coverage } = searchedCategories(index, q.distances, approximateSite);
  const approximateMeters = q.approximateMeters ?? APPROXIMATE_LOCATION_METERS;
  const from = fromOf(site, q.boundary);
  const { list, approximate } = listed(spatial, from, searched, approximateMeters);
  // counts per (category, band), as numbers while counting: one record per category at the end
  const bandCounts = new Uint32Array(CATEGORIES.length * DISTANCE_BANDS.length);
  for (const { distance, listing } of list) {
    const band = bandOf(distance, onSite(from, distance), approximateSite);
    for (const c of listing.at) bandCounts[c * DISTANCE_BANDS.length + band]!++;
  }

  const summary: SummaryRow[] = CATEGORIES.map((c, ci) => {
    const counts = bandRecord(bandCounts, ci);
    const cov = coverage.get(c.key)!;
    return {
      category: c.key,
      label: c.label,
      // a parcel's on_site is inside its boundary: no distance beyond it
      search_distance_miles: c.key === 'on_site' && from.parcel ? 0 : q.distances[c.key],
      coverage: cov,
      note: withheld(c, approximateSite) ? WITHHELD_NOTE : coverageNote(c, cov),
      counts,
      total: Object.values(counts).reduce((a, b) => a + b, 0),
    };
  });

  const report: SiteReport = {
    site: { lat: site.lat, lng: site.lng, located_by: site.located_by, approximate: site.approximate, name: q.name, address: q.address, zip: site.zip, matched_registry_id: site.matched_registry_id, note: site.note, boundary: q.boundary ?? null },
    search_distances: q.distances,
    findings: [],
    unmapped: unmappedOf(spatial, site, searched, approximate, approximateMeters),
    summary,
    sources: sourcesOf(index.info, approximateSite || site.zip !== null, CATEGORIES.filter((c) => coverage.get(c.key) === 'not_searched' && !withheld(c, approximateSite))),
    dataset: datasetMeta(index.info),
    warnings: [],
  };
  report.warnings = warningsOf(report, q.reportDate ?? new Date().toISOString().slice(0, 10));
  return { report, listed: list, from };
}

/** The site report, every form's (JSON, CSV, GeoJSON, PDF). */
export function buildSiteReport(index: FacilityIndex, spatial: SpatialIndex, q: SiteQuery): SiteReport {
  const { report, listed: list, from } = siteReportParts(index, spatial, q);
  const approximateSite = q.site.located_by === 'zip_centroid';
  const findings: Finding[] = new Array(list.length);
  const texts = textsOf(spatial);
  const read = findingReaders(spatial);
  // the programs' labels of one combination of program bits, shared by the findings that have it
  const programsOf = new Map<number, string[]>();
  for (let i = 0; i < list.length; i++) {
    const { pos: p, distance, bearing, listing } = list[i]!;
    const address = texts.address(p);
    const bits = spatial.site[p]!;
    let programs = programsOf.get(bits & PROGRAM_BITS);
    if (programs === undefined) programsOf.set(bits & PROGRAM_BITS, (programs = programList(siteFactsOfBits(bits))));
    // fields in the schema's order (the JSON's order)
    findings[i] = {
      registry_id: registryIdAt(spatial, p),
      fac_name: texts.name(p),
      fac_street: address.street,
      fac_city: address.city,
      fac_state: spatial.states[spatial.state[p]!]!,
      fac_zip: address.zip,
      distance_miles: roundMiles(distance),
      bearing_degrees: roundBearing(bearing),
      direction: !approximateSite && onSite(from, distance) ? 'on site' : compassPoint(bearing),
      categories: listing.keys,
      overall_score: spatial.score[p]!,
      significant_violation: (bits & SITE_BIT.significant) !== 0,
      active_enforcement: (spatial.flags[p]! & 1) === 1,
      programs,
      program_ids: read.programIds(p),
      rcra_generator_size: read.generatorSize(p),
      latest_violation_quarter: read.latestQuarter(p),
      latest_action_date: read.latestAction(p),
      location_accuracy_m: read.accuracy(p),
      location_method: read.method(p),
      location: { lat: spatial.lat[p]!, lng: spatial.lng[p]! },
      data_sufficient: (bits & SITE_BIT.insufficientData) === 0,
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
function listed(spatial: SpatialIndex, site: From, searched: readonly Searched[], approximateMeters: number): { list: Listed[]; approximate: Approximate[] } {
  const out: Listed[] = [];
  const approximate: Approximate[] = [];
  if (searched.length === 0) return { list: out, approximate };
  // a point at an area's centre, or coarser than the setting, is listed apart (unmapped), never placed
  const { locMethod, locAccuracy, methods } = areaArrays(spatial);
  const centreMethod = Uint8Array.from(methods, (m) => (m !== '' && isAreaCentreMethod(m) ? 1 : 0));
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
  // a parcel: the walk goes from the site point over the reach plus the parcel's bounding circle; the
  // circle's lower bound (distance to the point less its radius) rules most out before any edge is measured
  const { parcel, radius } = site;
  const onAt = searched.findIndex((s) => s.rule.key === 'on_site');
  const adjoiningAt = searched.findIndex((s) => s.rule.key === 'adjoining');
  const walkReach = parcel === null ? reachOf : (pos: number) => {
    const r = reachOf(pos);
    return r < 0 ? -1 : r + radius;
  };
  const query = { lat: site.lat, lng: site.lng, radiusMiles: maxMiles + radius, state: null, activeEnforcement: null };
  eachWithin(
    spatial,
    query,
    (pos, fromPoint) => {
      let distance = fromPoint;
      if (parcel !== null) {
        const reach = reachOfBits[bitsOf[pos]!]!;
        if (fromPoint - radius > reach) return;
        distance = distanceToParcel(parcel, spatial.lat[pos]!, spatial.lng[pos]!, reach);
        if (distance > reach) return;
      }
      // within the facility's reach: at least one of its categories is within its distance
      if (centreMethod[locMethod[pos]!] === 1 || locAccuracy[pos]! > approximateMeters) {
        approximate.push({ pos, distance });
        return;
      }
      const types = typesOf[bitsOf[pos]!]!;
      const on = parcel !== null ? distance === 0 : distance < ON_SITE_MILES;
      let set = 0;
      for (let k = 0; k < miles.length; k++) {
        if ((types & (1 << k)) === 0) continue;
        // on site and adjoining part at the property line: adjoining is off it
        const within = k === onAt ? on : k === adjoiningAt ? !on && distance <= miles[k]! : distance <= miles[k]!;
        if (within) set |= 1 << k;
      }
      if (set === 0) return;
      let listing = listings[set];
      if (listing === undefined) {
        const ks = searched.map((_, k) => k).filter((k) => (set & (1 << k)) !== 0);
        listings[set] = listing = { keys: ks.map((k) => searched[k]!.rule.key), at: ks.map((k) => place[k]!) };
      }
      out.push({ pos, distance, bearing: bearingDegrees(site.lat, site.lng, spatial.lat[pos]!, spatial.lng[pos]!), listing });
    },
    walkReach,
  );
  const order = (a: { pos: number; distance: number }, b: { pos: number; distance: number }) => a.distance - b.distance || spatial.rank[a.pos]! - spatial.rank[b.pos]!;
  return { list: out.sort(order), approximate: approximate.sort(order) };
}

/** A facility within the searched distances whose point is too coarse to place it (./location-quality.ts). */
type Approximate = { pos: number; distance: number };

/** The summary band of a distance; a site at its ZIP's centre claims nothing on site (those count in the first band beyond). */
function bandOf(distance: number, on: boolean, approximateSite: boolean): number {
  return on && !approximateSite ? 0 : Math.max(1, bandIndexOf(distance));
}

/** The site with a ZIP: when none was given or found, the ZIP whose centre is nearest, which the note says. */
function withZip(site: LocatedSite): LocatedSite {
  if (site.zip !== null) return site;
  const nearest = nearestZip(site.lat, site.lng);
  if (!nearest) return site;
  return { ...site, zip: nearest.zip, note: `${site.note} No ZIP was given: ZIP ${nearest.zip} is the one whose centre is nearest the site (${nearest.miles.toFixed(1)} mi, bundled ZIP table).` };
}

function coverageNote(c: CategoryRule, cov: Coverage): string {
  const columns = `ECHO columns: ${c.columns.join(', ')}.`;
  if (cov === 'broadened') return `Broadened: ${c.broadNote}. ${columns}`;
  if (cov === 'not_searched') return `Not searched: ${c.columns.join(', ')} ${c.columns.length === 1 ? 'is' : 'are'} not in this index. ${columns}`;
  return `${c.basis}. ${columns}`;
}

/**
 * The facilities a report cannot place, as database reports list them: those without coordinates
 * in the site's ZIP and in every ZIP whose centre is within the largest search distance plus
 * UNMAPPED_ZIP_MARGIN_MILES (kept beside the area index by ZIP, with their site facts: no row read), and those within the search
 * distances whose point is an area's centre or coarser than the setting (from the walk). Each with
 * its ZIP, why it is not placed and the categories whose record type it has.
 */
function unmappedOf(spatial: SpatialIndex, site: LocatedSite, searched: Searched[], approximate: Approximate[], approximateMeters: number): SiteReport['unmapped'] {
  // what a facility's site-fact bits say (its record categories and programs), made once per combination of bits
  const kinds = new Map<number, { facts: SiteFacts; categories: CategoryKey[]; programs: string[] }>();
  const kindOf = (bits: number) => {
    let k = kinds.get(bits);
    if (k === undefined) {
      const facts = siteFactsOfBits(bits);
      const categories = searched.filter((s) => s.rule.key !== 'adjoining' && s.rule.key !== 'on_site' && s.test(facts)).map((s) => s.rule.key);
      kinds.set(bits, (k = { facts, categories, programs: programList(facts) }));
    }
    return k;
  };
  const facilities: UnmappedFacility[] = [];
  const texts = textsOf(spatial);
  const read = findingReaders(spatial);
  for (const { pos: p } of approximate) {
    const address = texts.address(p);
    const bits = spatial.site[p]!;
    const kind = kindOf(bits);
    const accuracy = read.accuracy(p), method = read.method(p);
    facilities.push({
      registry_id: registryIdAt(spatial, p), fac_name: texts.name(p), fac_street: address.street, fac_city: address.city, fac_state: spatial.states[spatial.state[p]!]!, fac_zip: address.zip,
      overall_score: spatial.score[p]!, significant_violation: kind.facts.significant, active_enforcement: (spatial.flags[p]! & 1) === 1, programs: kind.programs,
      categories: kind.categories, zip: zip5(address.zip) || null,
      reason: approximateLocationReason(accuracy, method, approximateMeters)!,
      location_accuracy_m: accuracy, location_method: method,
      data_sufficient: !kind.facts.insufficientData,
    });
  }
  const maxMiles = Math.max(0, ...searched.map((s) => s.miles));
  const zips = site.zip === null ? [] : [site.zip, ...zipsWithin(site.lat, site.lng, maxMiles + UNMAPPED_ZIP_MARGIN_MILES).map((z) => z.zip).filter((z) => z !== site.zip)];
  const placedApart = approximate.length;
  const apart = placedApart === 0 ? '' : ` ${placedApart} ${placedApart === 1 ? 'facility' : 'facilities'} within the search distances ${placedApart === 1 ? 'has' : 'have'} an approximate location (an area's centre, or coarser than the report's accuracy limit), so ${placedApart === 1 ? 'it is' : 'they are'} listed here, not placed.`;
  if (zips.length === 0) {
    return { zip: null, zips, searched: false, note: `No ZIP for the site, so facilities without coordinates were not looked for.${apart}`, facilities };
  }
  let found = 0;
  const byZip = unplacedInZips(spatial, zips);
  for (const zip of zips) {
    for (const row of byZip.get(zip) ?? []) {
      const kind = kindOf(row.site_facts);
      found++;
      facilities.push({
        registry_id: row.registry_id, fac_name: row.fac_name, fac_street: row.fac_street, fac_city: row.fac_city, fac_state: row.fac_state, fac_zip: row.fac_zip,
        overall_score: row.overall_score, significant_violation: kind.facts.significant, active_enforcement: row.active_enforcement, programs: kind.programs,
        categories: kind.categories, zip, reason: 'no coordinates', location_accuracy_m: null, location_method: null, data_sufficient: !kind.facts.insufficientData,
      });
    }
  }
  const others = zips.length - 1;
  const where = `ZIP ${site.zip}${others === 0 ? '' : ` and the ${others} ${others === 1 ? 'ZIP' : 'ZIPs'} whose centre is within ${roundMiles(maxMiles + UNMAPPED_ZIP_MARGIN_MILES)} mi`}`;
  return { zip: site.zip, zips, searched: true, note: `${found} ${found === 1 ? 'facility' : 'facilities'} without coordinates in ${where}: their distance from the site is unknown.${apart}`, facilities };
}

const DAY_MS = 86_400_000;
/** ASTM E1527-21 expects government records reviewed within 90 days (of their release by the source). */
export const STALE_DATA_DAYS = 90;

/** What a reader must know before relying on the report, in report order. */
function warningsOf(r: SiteReport, reportDate: string): Warning[] {
  const w: Warning[] = [];
  const age = Math.floor((Date.parse(`${reportDate}T00:00:00Z`) - Date.parse(`${r.dataset.as_of}T00:00:00Z`)) / DAY_MS);
  if (age > STALE_DATA_DAYS) {
    w.push({ code: 'DATA_OLDER_THAN_90_DAYS', message: `The data is as of ${r.dataset.as_of}, ${age} days before this report (${reportDate}): older than the 90 days ASTM E1527-21 expects of government records. Facilities may have opened, closed or changed status since.` });
  }
  if (r.site.located_by === 'zip_centroid') {
    w.push({ code: 'APPROXIMATE_SITE', message: `The site is placed at the centre of ZIP ${r.site.zip}, not at the property: distances and directions are approximate, and no facility is claimed on site or adjoining.` });
  }
  const coarse = r.unmapped.facilities.filter((f) => f.reason !== 'no coordinates').length;
  if (coarse > 0) {
    w.push({ code: 'APPROXIMATE_FACILITY_LOCATIONS', message: `${coarse} ${coarse === 1 ? 'facility' : 'facilities'} within the search distances ${coarse === 1 ? 'is' : 'are'} located only approximately (an area's centre, or a coarse stated accuracy): listed with the unmapped records, not placed.` });
  }
  if (!r.unmapped.searched) w.push({ code: 'UNMAPPED_NOT_SEARCHED', message: `Facilities without coordinates were not looked for: ${r.unmapped.note}` });
  if (r.dataset.fictitious) w.push({ code: 'FICTITIOUS_DATA', message: 'The dataset is a FICTITIOUS sample, not EPA records: nothing in this report describes a real place.' });
  return w;
}
