import { describe, expect, it } from 'bun:test';
import { allocateColumns, copyFacility, layoutSpatialIndex } from '../../src/area/spatial-index';
import { readSpatialColumns } from '../../src/index/area/spatial-columns';
import { memoryIndex } from '../helpers';
import { rng } from './fixtures';
import { scatter } from '../site-report/fixtures';

const FIXED = ['lat', 'lng', 'score', 'flags', 'site', 'state', 'idNum', 'idLen'] as const;

describe('a facility copied between columns and the laid-out index (copyFacility)', () => {
  // facilities of every kind of record (their site facts vary), some IDs kept as text, two states
  const rows = scatter(rng(5), { lat: 29.7604, lng: -95.3698 }, 600, 3, 990_400_000_000).map((g, i) => ({
    ...g.row,
    registry_id: i % 50 === 0 ? `LA-${i}` : g.row.registry_id,
    fac_state: i % 3 === 0 ? 'LA' : 'TX',
  }));
  const columns = readSpatialColumns(memoryIndex(rows));
  const laid = layoutSpatialIndex(columns);

  it('holds the fixture: IDs kept as text, several states, site facts and flags that vary', () => {
    expect(columns.idOther.size).toBeGreaterThan(0);
    expect(new Set(columns.state).size).toBeGreaterThan(1);
    expect(new Set(columns.site).size).toBeGreaterThan(1);
    expect(new Set(columns.flags).size).toBeGreaterThan(1);
  });

  it('the index, copied back to registry order by rank, is the columns it was laid out from, field by field', () => {
    const back = allocateColumns(laid.count);
    for (let k = 0; k < laid.count; k++) copyFacility(back, laid.rank[k]!, laid, k);
    for (const field of FIXED) expect([field, Array.from(back[field])]).toEqual([field, Array.from(columns[field])]);
    expect([...back.idOther].sort()).toEqual([...columns.idOther].sort());
  });
});
