import type { Database } from 'bun:sqlite';
import type { Release } from './model';
import { CHANGE_KINDS, type ChangeKind } from './schema';

/** The release just written and how many facilities changed in it, by kind (all zero for a first release). */
export type RecordedRelease = Release & { changes: Record<ChangeKind, number> };

/** The index a new release follows (ingest --previous), as read before the build starts. */
export type PreviousIndex = {
  path: string;
  /** Its releases, oldest first. */
  releases: Release[];
  /** The keys of its stored inputs' values (format 10, src/index/inputs-codec.ts); null when it stores keyed objects. */
  inputsKeys: readonly string[] | null;
};

/** Schema name of the previous index inside the writer's connection. */
export const PREVIOUS_SCHEMA = 'prev';

const SCORE_COLUMNS = 'overall_score, violation_frequency, penalty_severity, recency, repeat_offender, active_enforcement';
const DIFFERS = ['overall_score', 'violation_frequency', 'penalty_severity', 'recency', 'repeat_offender', 'active_enforcement']
  .map((c) => `n.${c} IS NOT p.${c}`)
  .join(' OR ');

/**
 * The (key, value) pairs of a stored inputs column: a keyed object's own (formats up to 9), or an
 * array's values named by the index's inputs_keys, bound as JSON at `keysParam` (format 10).
 */
function inputPairs(column: string, keysParam: string | null): string {
  return keysParam === null
    ? `SELECT key, value FROM json_each(${column})`
    : `SELECT k.value AS key, v.value AS value FROM json_each(${column}) v JOIN json_each(${keysParam}) k ON k.key = v.key`;
}

/**
 * Whether the facility's own record (the score model's inputs) is the same in both releases. Only the
 * fields both releases know are compared, so a method that reads an extra field does not make every
 * facility look changed. Either release may store its inputs keyed or as values (inputPairs).
 */
function sameRecord(newKeys: string | null, previousKeys: string | null): string {
  return `NOT EXISTS (
  SELECT 1 FROM (${inputPairs('ni.score_inputs', newKeys)}) a JOIN (${inputPairs('pi.score_inputs', previousKeys)}) b ON b.key = a.key WHERE a.value IS NOT b.value)`;
}

/**
 * Writes the release list and history of the index being built (its `facility` table complete), inside
 * the writer's open transaction. Without a previous index this is release 1 and no history rows; with
 * one, the previous lists are carried over and one row is added per facility whose score, components,
 * enforcement flag or presence changed. The previous index is attached as PREVIOUS_SCHEMA.
 */
export function recordRelease(db: Database, release: Omit<Release, 'seq'>, previous: PreviousIndex | null, inputsKeys: readonly string[] | null): RecordedRelease {
  if (!previous) {
    const first = { seq: 1, ...release };
    insertRelease(db, first);
    return { ...first, changes: countChanges(db, first.seq) };
  }
  const p = PREVIOUS_SCHEMA;
  const last = previous.releases[previous.releases.length - 1]!;
  const firstSeq = previous.releases[0]!.seq;
  const next: Release = { seq: last.seq + 1, ...release };
  db.exec(`INSERT INTO release SELECT * FROM ${p}.release ORDER BY seq`);
  db.exec(`INSERT INTO history SELECT * FROM ${p}.history ORDER BY registry_id, seq`);
  insertRelease(db, next);

  // A facility's own change vs. a new score method: with the method changed, a facility whose inputs
  // are the same was only rescored (never reported as its own change).
  const methodChanged = last.score_version !== release.score_version;
  // the key lists are bound (?2, ?3), never spliced: the previous index's come from its file
  const same = sameRecord(inputsKeys ? '?2' : null, previous.inputsKeys ? '?3' : null);
  const keyArgs: (number | string | null)[] = [next.seq];
  if (methodChanged && previous.inputsKeys) keyArgs.push(inputsKeys && JSON.stringify(inputsKeys), JSON.stringify(previous.inputsKeys));
  else if (methodChanged && inputsKeys) keyArgs.push(JSON.stringify(inputsKeys));
  const kind = methodChanged ? `CASE WHEN p.registry_id IS NULL THEN 'added' WHEN ${same} THEN 'rescored' ELSE 'changed' END` : `CASE WHEN p.registry_id IS NULL THEN 'added' ELSE 'changed' END`;
  const inputs = methodChanged
    ? `LEFT JOIN facility_inputs ni ON ni.registry_id = n.registry_id LEFT JOIN ${p}.facility_inputs pi ON pi.registry_id = n.registry_id`
    : '';
  // both tables are in registry-ID order, so the probes walk the previous file front to back
  db.prepare(
    `INSERT INTO history SELECT n.registry_id, ?1, ${kind}, n.${SCORE_COLUMNS.split(', ').join(', n.')}
     FROM facility n LEFT JOIN ${p}.facility p ON p.registry_id = n.registry_id ${inputs}
     WHERE p.registry_id IS NULL OR ${DIFFERS}`,
  ).run(...keyArgs);
  db.prepare(
    `INSERT INTO history SELECT p.registry_id, ?1, 'removed', NULL, NULL, NULL, NULL, NULL, NULL
     FROM ${p}.facility p WHERE NOT EXISTS (SELECT 1 FROM facility n WHERE n.registry_id = p.registry_id)`,
  ).run(next.seq);
  // Baselines: a facility changing or leaving for the first time has been as the previous index holds
  // it since the first release; its 'added' row there makes the row before every change explicit.
  db.prepare(
    `INSERT INTO history SELECT p.registry_id, ?2, 'added', p.${SCORE_COLUMNS.split(', ').join(', p.')}
     FROM history h JOIN ${p}.facility p ON p.registry_id = h.registry_id
     WHERE h.seq = ?1 AND h.change != 'added' AND NOT EXISTS (SELECT 1 FROM ${p}.history ph WHERE ph.registry_id = h.registry_id)`,
  ).run(next.seq, firstSeq);
  return { ...next, changes: countChanges(db, next.seq) };
}

function countChanges(db: Database, seq: number): Record<ChangeKind, number> {
  const counts = Object.fromEntries(CHANGE_KINDS.map((k) => [k, 0])) as Record<ChangeKind, number>;
  const rows = db.prepare<{ change: ChangeKind; n: number }, [number]>('SELECT change, count(*) AS n FROM history WHERE seq = ? GROUP BY change').all(seq);
  for (const r of rows) counts[r.change] = r.n;
  return counts;
}

function insertRelease(db: Database, r: Release): void {
  db.prepare('INSERT INTO release (seq, as_of, score_version, dataset_name, facility_count) VALUES (?1, ?2, ?3, ?4, ?5)').run(
    r.seq, r.as_of, r.score_version, r.dataset_name, r.facility_count,
  );
}
