import { Database } from 'bun:sqlite';
import { parseDetail } from '../../src/index/facility-detail';
import { inputsOfStored } from '../../src/index/inputs-codec';
import { sharedRecordsOf, type StoredProgram } from '../../src/index/program-codec';

/**
 * Turns a current index file, in place, into the format-9 layout (the format before the current one,
 * which `ingest --previous` still reads): every program record and detail back in the row as text (no
 * program_record, no shared_detail), the inputs keyed objects (no inputs_keys).
 */
export function toFormat9(path: string): void {
  const db = new Database(path, { strict: true });
  db.exec('BEGIN'); // one commit for every row rewritten, not one each
  const keys = JSON.parse(db.query<{ value: string }, []>("SELECT value FROM index_meta WHERE key = 'inputs_keys'").get()!.value) as string[];
  const shared = sharedRecordsOf(db.query<{ id: number; record: string }, []>('SELECT id, record FROM program_record').all());
  const putDetail = db.prepare('UPDATE facility SET detail = ?2 WHERE registry_id = ?1');
  const details = db.query<{ registry_id: string; detail: string }, []>('SELECT f.registry_id, coalesce(s.detail, f.detail) AS detail FROM facility f LEFT JOIN shared_detail s ON s.id = f.detail').all();
  for (const { registry_id, detail } of details) {
    const d = parseDetail(detail);
    if (d[0] !== 0) d[0] = (d[0] as StoredProgram[]).map((p) => (typeof p === 'number' ? [...shared[p]!] : p));
    putDetail.run(registry_id, JSON.stringify(d));
  }
  const putInputs = db.prepare('UPDATE facility_inputs SET score_inputs = ?2 WHERE registry_id = ?1');
  for (const row of db.query<{ registry_id: string; score_inputs: string }, []>('SELECT registry_id, score_inputs FROM facility_inputs').all()) {
    putInputs.run(row.registry_id, JSON.stringify(inputsOfStored(row.score_inputs, keys)));
  }
  db.exec("DROP TABLE program_record; DROP TABLE shared_detail; DELETE FROM index_meta WHERE key = 'inputs_keys'; UPDATE index_meta SET value = '9' WHERE key = 'format'; COMMIT; VACUUM");
  db.close();
}
