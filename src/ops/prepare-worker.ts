/**
 * Worker thread of a SIGHUP reload: makes the area search's spatial index of an index file (loaded
 * or built by the area module) while the main thread keeps answering requests on the old index.
 * The result is plain typed arrays, Maps and strings, so it is cloned to the main thread with every
 * typed array's buffer transferred.
 */
import { spatialIndexFor } from '../area/spatial-registry';
import { FacilityIndex } from '../index/facility-index';

declare const self: Worker;

export type PrepareRequest = { path: string };
export type PrepareReply = { ok: true; spatial: unknown } | { ok: false; message: string };

self.onmessage = (event: MessageEvent<PrepareRequest>) => {
  let index: FacilityIndex | undefined;
  try {
    index = FacilityIndex.open(event.data.path);
    const spatial = spatialIndexFor(index);
    const buffers = new Set<ArrayBuffer>();
    for (const v of Object.values(spatial)) if (ArrayBuffer.isView(v) && v.buffer instanceof ArrayBuffer) buffers.add(v.buffer);
    self.postMessage({ ok: true, spatial } satisfies PrepareReply, [...buffers]);
  } catch (e) {
    self.postMessage({ ok: false, message: (e as Error).message } satisfies PrepareReply);
  } finally {
    index?.close();
  }
};
