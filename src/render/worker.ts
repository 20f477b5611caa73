/**
 * A render pool worker (./pool.ts): opens the index of each source it is given, for itself and
 * read-only (./source.ts), and answers one job at a time with the bytes of its body, transferred.
 * A job that throws is answered with its message (the pool logs it and answers 500); the worker
 * goes on with the next.
 */
import { loadSpatialBytes, loadSpatialFile, type LoadOutcome } from '../index/area/spatial-file';
import { AREA_H3_RES } from '../area/spatial-index';
import { FacilityIndex } from '../index/facility-index';
import { indexIdentity } from '../index/identity';
import { runJob, type OpenSource } from './jobs';
import { SOURCES_KEPT, type JobMessage, type JobReply } from './worker-protocol';
import { edenGC } from 'bun:jsc';
import type { SourceSpec } from './source';

declare const self: Worker;

/** Sources opened, by id: the latest few (an index reload hands over from one app to the next). */
const open = new Map<number, OpenSource>();

function opened(id: number, spec: SourceSpec | undefined): OpenSource {
  const known = open.get(id);
  if (known) return known;
  if (!spec) throw new Error(`source ${id} was never given to this worker`);
  const index = 'path' in spec.index ? FacilityIndex.open(spec.index.path) : FacilityIndex.fromBytes(spec.index.bytes);
  let spatial = null;
  if (spec.spatial) {
    if ('arrays' in spec.spatial) spatial = spec.spatial.arrays;
    else {
      const identity = indexIdentity(index.info);
      const loaded: LoadOutcome = 'path' in spec.spatial ? loadSpatialFile(spec.spatial.path, identity, AREA_H3_RES) : loadSpatialBytes(spec.spatial.bytes, identity, AREA_H3_RES);
      if (!loaded.ok) throw new Error(`area file not usable on the render worker: ${loaded.reason}`);
      spatial = loaded.spatial;
    }
  }
  const source = { index, spatial };
  open.set(id, source);
  for (const [old, s] of open) {
    if (open.size <= SOURCES_KEPT) break;
    open.delete(old);
    s.index.close();
  }
  return source;
}

self.onmessage = async (event: MessageEvent<JobMessage>) => {
  const { id, sourceId, source, job } = event.data;
  try {
    const body = await runJob(opened(sourceId, source), job);
    self.postMessage({ id, ok: true, body } satisfies JobReply, [body.buffer as ArrayBuffer]);
  } catch (e) {
    self.postMessage({ id, ok: false, message: (e as Error).message } satisfies JobReply);
  } finally {
    // A site report PDF leaves pdf-lib's object graph of every page as garbage, all of it young:
    // collected before the next job, so a worker holds one such report at most (left to the
    // collector's schedule, several piled up). The young generation only: a full collection marks
    // the whole heap, and the next request waited for it (docs/benchmarks.md, "Tenant isolation").
    // Not after the other jobs: their garbage is small.
    if (job.kind === 'site-pdf') edenGC();
  }
};
