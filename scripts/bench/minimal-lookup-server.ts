// Reference for bench-lookup: the prototype of ../shared/MEASURED.md, an Elysia route doing one prepared
// bun:sqlite point lookup per request and returning the row in an envelope, with none of the
// service's auth, quota, headers, access log or metrics. It shows how much of the gap to the bare
// server is the framework and the database read alone.
import { Database } from 'bun:sqlite';
import { Elysia } from 'elysia';

const db = new Database(process.argv[2]!, { readonly: true, strict: true });
db.exec('PRAGMA query_only = ON; PRAGMA mmap_size = 4294967296; PRAGMA locking_mode = EXCLUSIVE;');
const byId = db.prepare(
  `SELECT registry_id, fac_name, fac_street, fac_city, fac_state, fac_zip, lat, lng, fac_naics, overall_score, active_enforcement,
     baseline, violation_frequency, penalty_severity, recency, repeat_offender FROM facility WHERE registry_id = ?`,
);
const app = new Elysia().get('/api/v1/facility/:registry_id', ({ params }) => ({
  data: byId.get(params.registry_id),
  meta: { request_id: 'req_0', timestamp: new Date().toISOString(), response_time_ms: 0 },
}));
app.listen({ port: 0, hostname: '127.0.0.1' });
console.log(`"port":${app.server!.port}`);
