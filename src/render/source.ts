import { spatialFilePath } from '../index/area/spatial-file';
import type { SpatialHandle } from '../area/spatial-handle';
import type { SpatialIndex } from '../area/spatial-index';
import type { FacilityIndex } from '../index/facility-index';

/**
 * How a worker opens the index an app serves, for itself: the index file read-only (SQLite's pages
 * and the area file's mapping are the operating system's page cache, shared by every thread), or,
 * for an index held in memory (tests, the binary's sample when no copy could be written), a copy of
 * its bytes; the spatial index from its area file (mapped), the embedded area file's bytes, or a
 * copy of one built in memory.
 */
export type SourceSpec = {
  index: { path: string } | { bytes: Uint8Array };
  spatial: { path: string } | { bytes: Uint8Array } | { arrays: SpatialIndex } | null;
};

let lastId = 0;

/**
 * The index an app serves, as the render pool's workers open it: one per app (an index reload
 * builds a new app, hence a new source). Its spec is made when a job first needs it and again once
 * the spatial index is ready, so a worker holds at most the one it was last given per source.
 */
export class RenderSource {
  private made: { id: number; spec: SourceSpec; withSpatial: boolean } | null = null;

  constructor(
    private readonly index: FacilityIndex,
    private readonly spatial: SpatialHandle,
  ) {}

  /** The current spec and its id (a new id when the spatial index became ready since the last one). */
  current(): { id: number; spec: SourceSpec } {
    const ready = this.spatial.current !== null;
    if (this.made && (this.made.withSpatial || !ready)) return this.made;
    this.made = { id: ++lastId, spec: { index: this.indexSpec(), spatial: ready ? this.spatialSpec(this.spatial.current!) : null }, withSpatial: ready };
    return this.made;
  }

  private indexSpec(): SourceSpec['index'] {
    const file = this.index.file;
    return file !== null ? { path: file } : { bytes: this.index.bytes() };
  }

  private spatialSpec(spatial: SpatialIndex): NonNullable<SourceSpec['spatial']> {
    if (this.spatial.source === 'file') {
      if (this.index.areaFile) return { bytes: this.index.areaFile };
      if (this.index.file !== null) return { path: spatialFilePath(this.index.file) };
    }
    return { arrays: spatial };
  }
}

const sources = new WeakMap<FacilityIndex, RenderSource>();

/** The one source of the app serving `index` (every route of that app shares it). */
export function renderSourceOf(index: FacilityIndex, spatial: SpatialHandle): RenderSource {
  let source = sources.get(index);
  if (!source) sources.set(index, (source = new RenderSource(index, spatial)));
  return source;
}
