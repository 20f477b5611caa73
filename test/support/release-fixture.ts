import { DEFAULT_ROWS, facility } from '../helpers';
import type { TestHistoryRow, TestRelease } from './history-index';

/** Three weekly releases of five fictitious facilities (A..E = 990000000001..5), with every kind of row. */
export const A = '990000000001';
export const B = '990000000002';
export const C = '990000000003';
export const D = '990000000004';
export const E = '990000000005';

export const RELEASES: TestRelease[] = [
  { seq: 1, as_of: '2026-10-01' },
  { seq: 2, as_of: '2026-10-08', score_version: 'fcs-2.0' },
  { seq: 3, as_of: '2026-10-15', score_version: 'fcs-2.0' },
];

export const HISTORY: TestHistoryRow[] = [
  { registry_id: A, seq: 1, change: 'added', score: 80 },
  { registry_id: B, seq: 1, change: 'added', score: 70 },
  { registry_id: C, seq: 1, change: 'added', score: 60 },
  { registry_id: D, seq: 1, change: 'added', score: 90 },
  // release 2: A drops 10, B's enforcement starts, C goes, D is only rescored (new version)
  { registry_id: A, seq: 2, change: 'changed', score: 70 },
  { registry_id: B, seq: 2, change: 'changed', score: 70, enforcement: true },
  { registry_id: C, seq: 2, change: 'removed' },
  { registry_id: D, seq: 2, change: 'rescored', score: 88 },
  // release 3: A recovers 5, D drops 8 from its rescored 88, E appears
  { registry_id: A, seq: 3, change: 'changed', score: 75 },
  { registry_id: D, seq: 3, change: 'changed', score: 80 },
  { registry_id: E, seq: 3, change: 'added', score: 50 },
];

/** The facility table of release 3 (C is gone). */
export const ROWS_3 = [
  facility({ registry_id: A, overall_score: 75 }),
  { ...DEFAULT_ROWS[1]!, overall_score: 70, active_enforcement: true },
  facility({ registry_id: D, overall_score: 80 }),
  facility({ registry_id: E, overall_score: 50 }),
];

/** Release 2 as the newest (its facility table, and history up to seq 2). */
export const ROWS_2 = [facility({ registry_id: A, overall_score: 70 }), ROWS_3[1]!, facility({ registry_id: D, overall_score: 88 })];
export const HISTORY_2 = HISTORY.filter((h) => h.seq <= 2);
export const RELEASES_2 = RELEASES.slice(0, 2);
