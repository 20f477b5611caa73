import { AREA_H3_RES, layoutSpatialIndex, registryIdAt, type Carried, type SpatialIndex } from '../../area/spatial-index';
import { textsOf } from '../../area/text-bytes';
import type { AreaColumns, AreaIndex, UnplacedColumns } from '../declared-columns';
import type { UnplacedFacility } from '../unmapped-reads';

export type { UnplacedColumns };

/**
 * The facilities without coordinates, which the area search never finds, kept beside the area index
 * for a site report's unmapped list (the facilities of the ZIPs around a site): who and where, score,
 * flag and site facts, in the columns every index has, ordered by ZIP5 and registry ID, with each
 * one's ZIP5 as a number (`zip5`). A facility whose ZIP does not start with five digits is in no ZIP
 * a report looks in, and is left out. Read from memory, as the findings are: a report reads no row.
 */
export const UNPLACED_CARRIED: Carried = { fixed: [['zip5', 'Uint32Array']], texts: [], words: [] };

/** The area index laid out from columns (in registry order), with the facilities without coordinates they hold beside it. */
export function layoutArea(cols: AreaColumns, res = AREA_H3_RES): SpatialIndex {
  const s = layoutSpatialIndex(cols, res) as AreaIndex;
  s.unplaced = cols.unplaced;
  return s;
}

/** The first five characters of a ZIP as a number, or -1 when they are not five digits. */
export function zip5Number(zip: string): number {
  if (zip.length < 5) return -1;
  let n = 0;
  for (let k = 0; k < 5; k++) {
    const d = zip.charCodeAt(k) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

/** Positions in (ZIP5, registry ID) order (registry IDs as SQLite orders the text key). */
export function unplacedOrder(c: Pick<UnplacedColumns, 'count' | 'zip5' | 'idNum' | 'idLen' | 'idOther'>): Uint32Array {
  const ids = Array.from({ length: c.count }, (_, i) => registryIdAt(c as unknown as SpatialIndex, i));
  return Uint32Array.from(ids.keys()).sort((a, b) => c.zip5[a]! - c.zip5[b]! || (ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : 0));
}

/** The facilities without coordinates `s` keeps beside it; throws when it keeps none (an index laid out by other code). */
export function unplacedOf(s: SpatialIndex): UnplacedColumns {
  const u = (s as SpatialIndex & { unplaced?: UnplacedColumns }).unplaced;
  if (!u) throw new Error('the area index keeps no facilities without coordinates');
  return u;
}

/** Those of `s` in each of `zips` (ZIP5), lowest registry ID first; a ZIP with none is absent. */
export function unplacedInZips(s: SpatialIndex, zips: readonly string[]): Map<string, UnplacedFacility[]> {
  const u = unplacedOf(s);
  const texts = textsOf(u);
  const out = new Map<string, UnplacedFacility[]>();
  for (const zip of zips) {
    const z = /^\d{5}$/.test(zip) ? Number(zip) : -1;
    if (z < 0 || out.has(zip)) continue;
    // the first position of the ZIP: a binary search over the ordered ZIPs
    let a = 0, b = u.count;
    while (a < b) {
      const m = (a + b) >>> 1;
      if (u.zip5[m]! < z) a = m + 1;
      else b = m;
    }
    if (a === u.count || u.zip5[a] !== z) continue;
    const list: UnplacedFacility[] = [];
    for (let i = a; i < u.count && u.zip5[i] === z; i++) {
      const address = texts.address(i);
      list.push({
        registry_id: registryIdAt(u as unknown as SpatialIndex, i), fac_name: texts.name(i), fac_street: address.street, fac_city: address.city, fac_state: u.states[u.state[i]!]!, fac_zip: address.zip,
        overall_score: u.score[i]!, active_enforcement: (u.flags[i]! & 1) === 1, site_facts: u.site[i]!,
      });
    }
    out.set(zip, list);
  }
  return out;
}
