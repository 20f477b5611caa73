import { existsSync } from 'node:fs';
import { loadSpatialBytes, loadSpatialFile, spatialFilePath } from '../index/area/spatial-file';
import { indexIdentity } from '../index/identity';
import { SpatialHandle } from '../area/spatial-handle';
import { AREA_H3_RES, type SpatialIndex } from '../area/spatial-index';
import { buildSpatialIndex } from '../index/area/spatial-columns';
import type { Log } from '../log';
import type { FacilityIndex } from '../index/facility-index';
import type { PrepareReply, PrepareRequest } from './prepare-worker';
import { workerUrl } from '../worker-url';

const WORKER_URL = workerUrl('./ops/prepare-worker.ts');

/** The spatial index made on a worker thread (from the index file, or from a copy of an in-memory index). */
function buildOnWorker(request: PrepareRequest, log: Log): Promise<SpatialIndex> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_URL);
    worker.onmessage = (event: MessageEvent<PrepareReply>) => {
      worker.terminate();
      const m = event.data;
      if (!m.ok) return reject(new Error(m.message));
      if (m.saved) log({ level: 'info', msg: `area spatial index saved to ${m.saved}: the next start uses it in place` });
      if (m.saveError) log({ level: 'warn', msg: `area spatial index not saved beside the index (${m.saveError}); the next start builds it again` });
      resolve(m.spatial as SpatialIndex);
    };
    worker.onerror = (event) => {
      worker.terminate();
      reject(new Error(event.message || 'prepare worker failed'));
    };
    worker.postMessage(request, request.bytes ? [request.bytes.buffer as ArrayBuffer] : []);
  });
}

/**
 * The area search's spatial index of `index`, as a handle the app is built with:
 * - ready at once when the release carries it (`<index>.area`, written by ingest and checked
 *   against the index's metadata): memory-mapped and used in place, milliseconds; the binary's
 *   embedded sample carries its area file embedded too (`index.areaFile`), used the same way;
 * - otherwise (an index built before releases carried it) ready later:
 *   built on a worker thread while lookups, portfolios and reports are already answered, and, for
 *   an index file in a writable directory, saved beside it so the next start uses it in place.
 *   Only if no worker can run is it built on this thread, after the current requests.
 * Nothing here runs while a request waits for it: the area search answers 503 until it is ready.
 */
export function prepareSpatial(index: FacilityIndex, log: Log): SpatialHandle {
  const file = index.file;
  const onDisk = file !== null && existsSync(file);
  const ready = (s: SpatialIndex, from: string) =>
    log({ level: 'info', msg: `area spatial index ready: ${s.count} facilities, ${s.cellLat.length} H3 cells (res ${s.res}) from ${from} in ${Math.round(s.buildMs)} ms` });
  if (index.areaFile) {
    const loaded = loadSpatialBytes(index.areaFile, indexIdentity(index.info), AREA_H3_RES);
    if (loaded.ok) {
      ready(loaded.spatial, 'the area file embedded with the index');
      return SpatialHandle.of(loaded.spatial, 'file');
    }
    log({ level: 'warn', msg: `area spatial index: the embedded area file not used (${loaded.reason}); building it on a worker thread, the area search answers 503 until then` });
  } else if (onDisk) {
    const path = spatialFilePath(file);
    const loaded = loadSpatialFile(path, indexIdentity(index.info), AREA_H3_RES);
    if (loaded.ok) {
      ready(loaded.spatial, path);
      return SpatialHandle.of(loaded.spatial, 'file');
    }
    log({ level: 'info', msg: `area spatial index: ${path} not used (${loaded.reason}); building it on a worker thread, the area search answers 503 until then` });
  }
  const handle = SpatialHandle.pending();
  const request: PrepareRequest = onDisk ? { path: file, save: true } : { bytes: index.bytes() };
  buildOnWorker(request, log).then(
    (s) => {
      ready(s, 'the facility table (worker thread)');
      handle.resolve(s, 'worker');
    },
    (e: Error) => {
      log({ level: 'warn', msg: `area spatial index worker failed (${e.message}); building it on the main thread` });
      setTimeout(() => {
        try {
          const s = buildSpatialIndex(index);
          ready(s, 'the facility table (main thread)');
          handle.resolve(s, 'main thread');
        } catch (e2) {
          log({ level: 'error', msg: `area spatial index could not be built: ${(e2 as Error).message}` });
          handle.reject(e2 as Error);
        }
      }, 0);
    },
  );
  return handle;
}
