import { Database } from 'bun:sqlite';
import { describe, expect, it } from 'bun:test';
import { BulkInsert, ROWS_PER_STATEMENT } from '../../src/index/bulk-insert';
import { IndexWriter } from '../../src/index/index-writer';
import type { IndexRow } from '../../src/index/index-row';

describe('BulkInsert: many rows a statement', () => {
  it.each([0, 1, ROWS_PER_STATEMENT - 1, ROWS_PER_STATEMENT, ROWS_PER_STATEMENT + 1, 3 * ROWS_PER_STATEMENT + 7])('%i rows: every row written once, in order, values as given', (n) => {
    const db = new Database(':memory:', { strict: true });
    db.exec('CREATE TABLE t (a TEXT, b INTEGER, c)');
    const bulk = new BulkInsert(db, 'INSERT', 't', 3);
    const rows = Array.from({ length: n }, (_, i) => [`id${i}`, i * 7, i % 3 === 0 ? null : i % 3 === 1 ? 'text' : 2.5] as const);
    for (const r of rows) bulk.add(...r);
    // full statements are written as they fill; the rest waits for flush()
    const before = db.query<{ n: number }, []>('SELECT count(*) AS n FROM t').get()!.n;
    expect(before).toBe(n - (n % ROWS_PER_STATEMENT));
    bulk.flush();
    bulk.flush(); // nothing left: writes nothing twice
    expect(db.query('SELECT a, b, c FROM t ORDER BY rowid').values()).toEqual(rows.map((r) => [...r]));
  });

  it('INSERT OR IGNORE skips rows the table already has, as one row a statement would', () => {
    const db = new Database(':memory:', { strict: true });
    db.exec('CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER)');
    const bulk = new BulkInsert(db, 'INSERT OR IGNORE', 't', 2);
    for (const [k, v] of [['a', 1], ['b', 2], ['a', 3]] as const) bulk.add(k, v);
    bulk.flush();
    expect(db.query('SELECT k, v FROM t ORDER BY k').values()).toEqual([['a', 1], ['b', 2]]);
  });
});

describe('IndexWriter.addRows', () => {
  const row = (id: string): IndexRow => ({
    registry_id: id, fac_name: `NAME ${id}`, fac_street: '1 MAIN ST', fac_city: 'TOWN', fac_state: 'OH', fac_zip: '44101', lat: 41.5, lng: -81.7, loc_accuracy_m: null, loc_method: '',
    fac_naics: '332813', overall_score: 90, active_enforcement: 0, baseline: 15, violation_frequency: 15, penalty_severity: 25, recency: 20,
    repeat_offender: 15, score_hash: 'hash', score_inputs_json: '[]', detail: '[0,0,1,2,3]',
    evidence_json: id.endsWith('7') ? '{"caa_history":"____"}' : '', completeness: id.endsWith('3') ? 2 : 1, site_facts: id.endsWith('5') ? 5 : 0,
  });

  it('writes each row to facility, facility_inputs and facility_address, the detail, completeness id and site facts as given, evidence only where there is some', () => {
    const w = new IndexWriter(':memory:');
    const ids = Array.from({ length: 150 }, (_, i) => `99000000${String(i).padStart(4, '0')}`);
    w.addRows(ids.map(row));
    expect(w.facilityCount).toBe(150);
    const db = (w as unknown as { db: Database }).db;
    for (const table of ['facility', 'facility_inputs', 'facility_address']) expect(db.query(`SELECT count(*) AS n FROM ${table}`).get()).toEqual({ n: 150 });
    expect(db.query("SELECT detail, lat, completeness FROM facility WHERE registry_id = '990000000149'").get()).toEqual({ detail: '[0,0,1,2,3]', lat: 41.5, completeness: 1 });
    expect(db.query("SELECT completeness FROM facility WHERE registry_id = '990000000143'").get()).toEqual({ completeness: 2 });
    expect(db.query("SELECT site_facts FROM facility WHERE registry_id IN ('990000000145', '990000000146') ORDER BY registry_id").all()).toEqual([{ site_facts: 5 }, { site_facts: 0 }]);
    expect(db.query('SELECT count(*) AS n FROM facility WHERE evidence IS NOT NULL').get()).toEqual({ n: 15 });
    expect(db.query("SELECT evidence FROM facility WHERE registry_id = '990000000147'").get()).toEqual({ evidence: '{"caa_history":"____"}' });
    w.abort();
  });

  it('a registry ID written twice is an error naming the duplicate check, not a silently dropped row', () => {
    const w = new IndexWriter(':memory:');
    w.addRows([row('990000000001')]);
    expect(() => w.addRows([row('990000000002'), row('990000000001')])).toThrow("a registry ID reached the index twice: the producer's duplicate check missed it");
    w.abort();
  });
});
