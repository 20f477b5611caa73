import type { FacilityIndex } from '../index/facility-index';
import { buildSpatialIndex, type SpatialIndex } from './spatial-index';

// One spatial index per open facility index; dropped with it (a rotated index gets its own).
const built = new WeakMap<FacilityIndex, SpatialIndex>();

/**
 * The spatial index of `index`, built on first use. `serve` calls this at start so the first
 * radius search does not pay for the build (seconds on the national index: see
 * docs/area-and-portfolio.md); tests let the first request build it.
 */
export function spatialIndexFor(index: FacilityIndex): SpatialIndex {
  let s = built.get(index);
  if (!s) {
    s = buildSpatialIndex(index);
    built.set(index, s);
  }
  return s;
}

/**
 * Installs a spatial index built elsewhere for `index` (serve's SIGHUP reload builds it on a worker
 * thread so the old index keeps serving meanwhile: src/ops/index-preparer.ts).
 */
export function adoptSpatialIndex(index: FacilityIndex, spatial: SpatialIndex): void {
  built.set(index, spatial);
}
