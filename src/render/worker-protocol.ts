import type { RenderJob } from './jobs';
import type { SourceSpec } from './source';

/** A job for a render worker; `source` is given the first time a worker meets `sourceId`. */
export type JobMessage = { id: number; sourceId: number; source?: SourceSpec; job: RenderJob };
export type JobReply = { id: number; ok: true; body: Uint8Array } | { id: number; ok: false; message: string };

/** Sources a worker keeps open, the latest given: an index reload hands over from one app to the next. */
export const SOURCES_KEPT = 2;
