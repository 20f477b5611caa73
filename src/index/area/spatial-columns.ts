import type { FacilityIndex } from '../facility-index';
import { AREA_H3_RES, allocateColumns, layoutSpatialIndex, putLocation, putRegistryId, type SpatialColumns, type SpatialIndex } from '../../area/spatial-index';
import { addressEntry, TextBytes } from '../../area/text-bytes';

/** Reads the facility table once, in registry_id order (the primary key's order). */
export function readSpatialColumns(index: FacilityIndex): SpatialColumns {
  const n = index.placedCount();
  const c = allocateColumns(n);
  const stateCode = new Map<string, number>();
  const methodCode = new Map<string, number>();
  const rows = index.placedRows();
  const names = new TextBytes();
  const addresses = new TextBytes();
  let count = 0;
  for (const r of rows) {
    if (count >= n) break;
    const i = count++;
    c.lat[i] = r.lat;
    c.lng[i] = r.lng;
    c.score[i] = r.overall_score;
    c.flags[i] = r.active_enforcement ? 1 : 0;
    c.site[i] = r.site_facts;
    c.addrStart[i + 1] = addresses.push(addressEntry(r.fac_street, r.fac_city, r.fac_zip));
    let sc = stateCode.get(r.fac_state);
    if (sc === undefined) stateCode.set(r.fac_state, (sc = c.states.push(r.fac_state) - 1));
    c.state[i] = sc;
    putRegistryId(c, i, r.registry_id);
    putLocation(c, methodCode, i, r.loc_accuracy_m, r.loc_method);
    c.nameStart[i + 1] = names.push(r.fac_name);
  }
  c.count = count;
  c.nameBytes = names.done();
  c.addrBytes = addresses.done();
  return c;
}

/** Reads the facility table of `index` and lays it out (seconds at national scale: one H3 call per facility). */
export function buildSpatialIndex(index: FacilityIndex, res = AREA_H3_RES): SpatialIndex {
  const started = performance.now();
  const s = layoutSpatialIndex(readSpatialColumns(index), res);
  s.buildMs = performance.now() - started;
  return s;
}
