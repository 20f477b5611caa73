import type { SpatialIndex } from '../area/spatial-index';
import { adoptSpatialIndex, spatialIndexFor } from '../area/spatial-registry';
import type { Log } from '../log';
import type { FacilityIndex } from '../index/facility-index';
import type { PrepareReply } from './prepare-worker';
import { workerUrl } from '../worker-url';

export type Prepared = { offThread: boolean; workerError?: string };

const WORKER_URL = workerUrl('./ops/prepare-worker.ts');

/** The spatial index of the index file at `path`, made on a worker thread. */
function buildOnWorker(path: string): Promise<SpatialIndex> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_URL);
    worker.onmessage = (event: MessageEvent<PrepareReply>) => {
      worker.terminate();
      if (event.data.ok) resolve(event.data.spatial as SpatialIndex);
      else reject(new Error(event.data.message));
    };
    worker.onerror = (event) => {
      worker.terminate();
      reject(new Error(event.message || 'prepare worker failed'));
    };
    worker.postMessage({ path });
  });
}

/**
 * Makes what `index` needs in memory before it serves: the area search's spatial index (loaded or
 * built by src/area/spatial-registry.ts; a build takes seconds on the national index). `offThread`
 * (a reload, while the old index still serves): on a worker thread reading the same file, then
 * handed over; inline when that is impossible (the embedded sample has no file; the worker failed),
 * so a reload still happens, only with a pause.
 */
export async function prepareIndex(index: FacilityIndex, offThread: boolean, log?: Log): Promise<Prepared> {
  const file = index.db.filename;
  let workerError: string | undefined;
  // The embedded sample is an in-memory copy (src/index/bundled.ts): no file a worker could open.
  if (offThread && file && file !== ':memory:') {
    try {
      adoptSpatialIndex(index, await buildOnWorker(file));
      return { offThread: true };
    } catch (e) {
      workerError = (e as Error).message;
    }
  }
  spatialIndexFor(index, log);
  return { offThread: false, workerError };
}
