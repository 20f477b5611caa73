// Reference for bench-lookup: the prototype of the measured notes, an Elysia route doing one
// prepared bun:sqlite point lookup per request and returning the row in an envelope, with none of
// the service's auth, quota, headers, access log or metrics. It shows how much of the gap to the
// bare server is the framework and the database read alone.
import { Database } from 'bun:sqlite';
import { Elysia } from 'elysia';

/** The minimal lookup app over the index at `indexPath`, and its prepared read (served by minimal-lookup-server.ts, called in process by bench-lookup-stages.ts). */
export function minimalLookupApp(indexPath: string) {
  const db = new Database(indexPath, { readonly: true, strict: true });
  db.exec('PRAGMA query_only = ON; PRAGMA mmap_size = 4294967296; PRAGMA locking_mode = EXCLUSIVE;');
  const byId = db.prepare(
    `SELECT registry_id, fac_name, fac_street, fac_city, fac_state, fac_zip, lat, lng, fac_naics, overall_score, active_enforcement,
       baseline, violation_frequency, penalty_severity, recency, repeat_offender FROM facility WHERE registry_id = ?`,
  );
  const app = new Elysia().get('/api/v1/facility/:registry_id', ({ params }) => ({
    data: byId.get(params.registry_id),
    meta: { request_id: 'req_0', timestamp: new Date().toISOString(), response_time_ms: 0 },
  }));
  return { app, byId };
}
