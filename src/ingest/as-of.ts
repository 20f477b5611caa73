import type { MappedRow } from './row-mapper';
import { addDays } from './values';

/** Where the as-of date came from: the --as-of flag, the data's own columns, or the newest file's date. */
export type AsOfSource = 'flag' | 'inferred' | 'file-date';

/** Votes needed before the inferred date is trusted; rows agree exactly in a consistent extract. */
const VOTES_NEEDED = 25;
/** Rows held back (unscored) while the as-of date is unknown; beyond this the fallback is used. */
export const AS_OF_BUFFER_ROWS = 5_000;

/**
 * Infers the dataset's as-of date from the exporter's own arithmetic: FAC_DATE_LAST_INSPECTION +
 * FAC_DAYS_LAST_INSPECTION is the day EPA computed the extract. Deterministic (the data decides, not
 * the clock or a file's mtime), so rebuilding the same file gives the same scores.
 */
export class AsOfVoter {
  private readonly votes = new Map<string, number>();
  private best: string | null = null;
  private bestVotes = 0;

  add(row: MappedRow): void {
    const d = row.inputs.date_last_inspection;
    if (d === null || row.days_last_inspection === null) return;
    const day = addDays(d, row.days_last_inspection);
    const n = (this.votes.get(day) ?? 0) + 1;
    this.votes.set(day, n);
    if (n > this.bestVotes) [this.best, this.bestVotes] = [day, n];
  }

  /** The date once enough rows agree, else null. */
  get decided(): string | null {
    return this.bestVotes >= VOTES_NEEDED ? this.best : null;
  }

  /** The most-voted date, however few votes (used at the end of the input). */
  get leading(): string | null {
    return this.best;
  }
}
