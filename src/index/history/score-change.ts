import type { ScoreChange } from './model';

/**
 * `score_change` as SQL beside a row `f` of table `facility`: the columns `previous_score` and
 * `previous_as_of`, both null when there is none, with the index's score method bound at `?2`. The
 * rule, on the facility's history entries newest first: the most recent change of overall score
 * under the current method, given as the score and as-of date of the entry before it. Walking back
 * from the newest entry, that entry `b` is the newest whose score differs from the newest's; it
 * counts only when it has a score, its release and every later entry's is of the current method, and
 * every later entry is a 'changed' one (a 'rescored' entry, or a change whose entry before was scored
 * by another method, is not the facility's own change; an 'added' or 'removed' one starts it afresh).
 *
 * Joined into the statement that reads the rows (a lookup's: ../stored-lookup.ts; a portfolio's:
 * ../list-reads.ts), so the score change comes with them: a facility without history rows costs a
 * probe or two of an index, one with rows a few more (reading its entries and walking them here
 * was a second statement and ~15 µs a lookup).
 */
export const SCORE_CHANGE_JOIN = `
LEFT JOIN history b ON b.registry_id = f.registry_id
  AND b.seq = (SELECT x.seq FROM history x WHERE x.registry_id = f.registry_id
               AND x.overall_score IS NOT (SELECT n.overall_score FROM history n WHERE n.registry_id = f.registry_id ORDER BY n.seq DESC LIMIT 1)
               ORDER BY x.seq DESC LIMIT 1)
  AND b.overall_score IS NOT NULL
  AND (SELECT score_version FROM release WHERE seq = b.seq) = ?2
  AND NOT EXISTS (SELECT 1 FROM history n JOIN release rn ON rn.seq = n.seq
                  WHERE n.registry_id = f.registry_id AND n.seq > b.seq AND (n.change != 'changed' OR rn.score_version IS NOT ?2))
LEFT JOIN release rb ON rb.seq = b.seq`;
export const SCORE_CHANGE_COLUMNS = 'b.overall_score AS previous_score, rb.as_of AS previous_as_of';

/** The two columns as read: both null, or both set. */
export type ScoreChangeColumns = { previous_score: number | null; previous_as_of: string | null };

/** `score_change` of the two columns. */
export function scoreChangeOf(r: ScoreChangeColumns): ScoreChange {
  return r.previous_score === null ? null : { previous_score: r.previous_score, previous_as_of: r.previous_as_of! };
}
