import type { Database } from 'bun:sqlite';
import type { ChangeReason } from './model';

/** One facility's change in one release, with what it was before (docs/webhooks.md). */
export type ReleaseChange = {
  registry_id: string;
  fac_name: string | null;
  as_of: string;
  previous_as_of: string | null;
  kind: 'added' | 'changed' | 'removed';
  overall_score: number | null;
  previous_score: number | null;
  active_enforcement: boolean | null;
  previous_enforcement: boolean | null;
  /** The release's score method (its `score_version`), named as the API names it. */
  score_method: string;
  /** 'method': only the score method changed (the record is the same); 'data_and_method': both in this release. */
  reason: ChangeReason;
};

type Raw = Omit<ReleaseChange, 'active_enforcement' | 'previous_enforcement'> & { active_enforcement: number | null; previous_enforcement: number | null };

// 'rescored' rows (only the score method changed) come back as changes with reason 'method': the
// watchlist rules ignore them unless a rule asks for them (src/watchlists/rules.ts). The "before" values come from the facility's latest row of an earlier release (of any kind, so a
// rescore counts as the baseline the next change is measured from). The facility table only holds
// the current release, so a removed facility's name is taken from nowhere: null.
const SELECT = `
SELECT h.registry_id, f.fac_name, r.as_of, pr.as_of AS previous_as_of, CASE h.change WHEN 'rescored' THEN 'changed' ELSE h.change END AS kind,
       h.overall_score, p.overall_score AS previous_score,
       h.active_enforcement, p.active_enforcement AS previous_enforcement, r.score_version AS score_method,
       CASE WHEN h.change = 'rescored' THEN 'method' WHEN h.change = 'changed' AND pr.score_version IS NOT r.score_version THEN 'data_and_method' ELSE 'data' END AS reason
FROM history h
JOIN release r ON r.seq = h.seq
LEFT JOIN history p ON p.registry_id = h.registry_id
  AND p.seq = (SELECT max(seq) FROM history q WHERE q.registry_id = h.registry_id AND q.seq < h.seq)
LEFT JOIN release pr ON pr.seq = p.seq
LEFT JOIN facility f ON f.registry_id = h.registry_id
WHERE h.change IN ('added', 'changed', 'removed', 'rescored')`;

// Prepared once per index file (the index is read-only while it serves).
const statements = new WeakMap<Database, ReturnType<typeof prepare>>();

function prepare(db: Database) {
  return {
    inRelease: db.prepare<Raw, [number]>(`${SELECT} AND h.seq = ? ORDER BY h.registry_id`),
    inReleaseFor: db.prepare<Raw, [string, number]>(`${SELECT} AND h.registry_id IN (SELECT value FROM json_each(?)) AND h.seq = ? ORDER BY h.registry_id`),
    ofIds: db.prepare<Raw, [string, number, number]>(
      `${SELECT} AND h.registry_id IN (SELECT value FROM json_each(?)) AND h.seq > ? AND h.seq <= ? ORDER BY h.seq, h.registry_id`,
    ),
  };
}

function statementsOf(db: Database) {
  let s = statements.get(db);
  if (s === undefined) statements.set(db, (s = prepare(db)));
  return s;
}

function toChange(r: Raw): ReleaseChange {
  return {
    ...r,
    active_enforcement: r.active_enforcement === null ? null : r.active_enforcement === 1,
    previous_enforcement: r.previous_enforcement === null ? null : r.previous_enforcement === 1,
  };
}

/** Every facility change of release `seq` (added, changed, removed, and rescores as changes with reason 'method'), by registry ID. */
export function changesInRelease(db: Database, seq: number): ReleaseChange[] {
  return statementsOf(db).inRelease.all(seq).map(toChange);
}

/**
 * The changes of release `seq` among `ids` only: one key lookup per ID, so watching 10,000 IDs costs
 * the same whatever the size of the release (reading a national release's 64,000 changes whole and
 * filtering was far slower; scripts/bench-watch-events.ts).
 */
export function changesInReleaseFor(db: Database, seq: number, ids: readonly string[]): ReleaseChange[] {
  return statementsOf(db).inReleaseFor.all(JSON.stringify(ids), seq).map(toChange);
}

/** The changes of `ids` in the releases after `afterSeq` up to `uptoSeq`, oldest release first. */
export function changesOfIds(db: Database, ids: readonly string[], afterSeq: number, uptoSeq: number): ReleaseChange[] {
  return statementsOf(db).ofIds.all(JSON.stringify(ids), afterSeq, uptoSeq).map(toChange);
}
