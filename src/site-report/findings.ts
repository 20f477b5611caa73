import { roundMiles } from '../area/service';
import { registryIdAt, type SpatialIndex } from '../area/spatial-index';
import { eachWithin } from '../area/spatial-search';
import { addressAt, nameAt } from '../area/text-bytes';
import { PROGRAM_BITS, SITE_BIT, siteFactsOfBits, type SiteFacts } from '../index/site-facts';
import type { CategoryKey, CategoryRule } from './categories';
import { bearingDegrees, directionOf, roundBearing } from './compass';
import { programList } from './facts';
import type { Finding } from './model';

/** A category the index can search, with its test and distance. */
export type Searched = { rule: CategoryRule; miles: number; test: (f: SiteFacts) => boolean };

/** A facility a report lists: its position in the spatial index, exact distance and categories. */
export type Listed = { pos: number; distance: number; categories: CategoryKey[] };

/**
 * The facilities within the searched distances that fall under at least one category there, with
 * those categories, nearest first (then registry ID). A dense site has thousands of facilities
 * within a mile and lists a fraction: each is tested from its site-fact bits as the walk meets it,
 * and only those listed are sorted.
 */
export function listedAround(spatial: SpatialIndex, site: { lat: number; lng: number }, searched: Searched[]): Listed[] {
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

/** Program labels (`['CAA', 'RCRA']`) by the program bits of a facility's site facts, each list made once. */
export class ProgramLabels {
  private readonly lists = new Map<number, string[]>();
  of(bits: number): string[] {
    let list = this.lists.get(bits & PROGRAM_BITS);
    if (list === undefined) this.lists.set(bits & PROGRAM_BITS, (list = programList(siteFactsOfBits(bits))));
    return list;
  }
}

/** What a finding shows beyond the stored texts, from the spatial index: every number and flag, in the schema's order. */
export function placedRecord(spatial: SpatialIndex, site: { lat: number; lng: number }, l: Listed) {
  const p = l.pos;
  const bearing = bearingDegrees(site.lat, site.lng, spatial.lat[p]!, spatial.lng[p]!);
  const bits = spatial.site[p]!;
  return {
    distance_miles: roundMiles(l.distance),
    bearing_degrees: roundBearing(bearing),
    direction: directionOf(l.distance, bearing),
    score: spatial.score[p]!,
    significant: (bits & SITE_BIT.significant) !== 0,
    active: (spatial.flags[p]! & 1) === 1,
    bits,
  };
}

/** The finding of a listed facility, read from the spatial index alone (no SQLite read). */
export function findingOf(spatial: SpatialIndex, site: { lat: number; lng: number }, l: Listed, labels: ProgramLabels): Finding {
  const p = l.pos;
  const r = placedRecord(spatial, site, l);
  const address = addressAt(spatial, p);
  // fields in the schema's order (the JSON's order)
  return {
    registry_id: registryIdAt(spatial, p),
    fac_name: nameAt(spatial, p),
    fac_street: address.street,
    fac_city: address.city,
    fac_state: spatial.states[spatial.state[p]!]!,
    fac_zip: address.zip,
    distance_miles: r.distance_miles,
    bearing_degrees: r.bearing_degrees,
    direction: r.direction,
    categories: l.categories,
    overall_score: r.score,
    significant_violation: r.significant,
    active_enforcement: r.active,
    programs: labels.of(r.bits),
  };
}
