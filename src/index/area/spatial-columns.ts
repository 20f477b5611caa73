import type { FacilityIndex } from '../facility-index';
import { AREA_H3_RES, type SpatialIndex } from '../../area/spatial-index';
import { layoutArea } from './unplaced';
import { declaredValuesOf, type AreaColumns } from '../declared-columns';
import type { Evidence } from '../evidence';
import { SpatialCollector } from './spatial-collector';

const NOTHING_STORED: Partial<Evidence> = Object.freeze({});

/**
 * Reads the facility table once, in registry_id order (the primary key's order), into the columns
 * ingest's collector would have made of its rows: the declared fields a table keeps in the stored
 * evidence are derived from it as ingest derived them (../declared-columns.ts); then the facilities
 * without coordinates (./unplaced.ts).
 */
export function readSpatialColumns(index: FacilityIndex): AreaColumns {
  const collector = new SpatialCollector('in-process', index.placedCount());
  const asOf = index.info.as_of;
  for (const r of index.placedRows()) {
    const evidence = r.evidence_json ? (JSON.parse(r.evidence_json) as Partial<Evidence>) : NOTHING_STORED;
    collector.add({ ...r, ...declaredValuesOf(r, evidence, asOf) });
  }
  for (const r of index.unplacedRows()) collector.add(r);
  return collector.columns();
}

/** Reads the facility table of `index` and lays it out (seconds at national scale: one H3 call per facility). */
export function buildSpatialIndex(index: FacilityIndex, res = AREA_H3_RES): SpatialIndex {
  const started = performance.now();
  const s = layoutArea(readSpatialColumns(index), res);
  s.buildMs = performance.now() - started;
  return s;
}
