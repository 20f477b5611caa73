/**
 * Worker thread that builds the area search's spatial index of an index without a stored one
 * (src/ops/index-preparer.ts), while the main thread answers requests. Given a path, it also saves
 * the result beside the index (`<index>.area`) for the next start. The result is plain typed
 * arrays, Maps and strings, so it is cloned to the main thread with every typed array's buffer
 * transferred.
 */
import { spatialFilePath, writeSpatialFile } from '../index/area/spatial-file';
import { indexIdentity } from '../index/identity';
import { buildSpatialIndex } from '../index/area/spatial-columns';
import { FacilityIndex } from '../index/facility-index';

declare const self: Worker;

/** An index file to open, or the bytes of an in-memory index (the embedded sample). */
export type PrepareRequest = { path: string; save: boolean; bytes?: undefined } | { bytes: Uint8Array; path?: undefined };
export type PrepareReply = { ok: true; spatial: unknown; saved?: string; saveError?: string } | { ok: false; message: string };

self.onmessage = (event: MessageEvent<PrepareRequest>) => {
  const req = event.data;
  let index: FacilityIndex | undefined;
  try {
    index = req.path !== undefined ? FacilityIndex.open(req.path) : FacilityIndex.fromBytes(req.bytes);
    const spatial = buildSpatialIndex(index);
    let saved: string | undefined, saveError: string | undefined;
    if (req.path !== undefined && req.save) {
      try {
        writeSpatialFile(spatialFilePath(req.path), spatial, indexIdentity(index.info));
        saved = spatialFilePath(req.path);
      } catch (e) {
        saveError = (e as Error).message;
      }
    }
    const buffers = new Set<ArrayBuffer>();
    for (const v of Object.values(spatial)) if (ArrayBuffer.isView(v) && v.buffer instanceof ArrayBuffer) buffers.add(v.buffer);
    self.postMessage({ ok: true, spatial, saved, saveError } satisfies PrepareReply, [...buffers]);
  } catch (e) {
    self.postMessage({ ok: false, message: (e as Error).message } satisfies PrepareReply);
  } finally {
    index?.close();
  }
};
