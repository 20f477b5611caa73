import type { Database, Statement } from 'bun:sqlite';

/** Rows per statement: one call per 64 rows instead of one per row, so bun:sqlite's fixed cost per call is shared. */
export const ROWS_PER_STATEMENT = 64;

/**
 * Multi-row INSERTs into one table: `add` collects a row's values, `flush` writes what was collected,
 * 64 rows a statement (a shorter statement for the rest, prepared once per length). Ingest writes
 * three tables a row; as one statement per row per table, bun:sqlite's calls were a visible share of
 * the load (docs/benchmarks.md).
 */
export class BulkInsert {
  private readonly statements = new Map<number, Statement>();
  private readonly values: (string | number | null)[] = [];
  private rows = 0;

  /** `verb`: e.g. `INSERT` or `INSERT OR IGNORE`. */
  constructor(
    private readonly db: Database,
    private readonly verb: string,
    private readonly table: string,
    private readonly width: number,
  ) {}

  add(...row: (string | number | null)[]): void {
    this.addRow(row);
  }

  /** A row's values, given as one array. */
  addRow(row: readonly (string | number | null)[]): void {
    for (let i = 0; i < row.length; i++) this.values.push(row[i]!);
    if (++this.rows === ROWS_PER_STATEMENT) this.flush();
  }

  flush(): void {
    if (this.rows === 0) return;
    // the values as one array argument (bun:sqlite binds its items in order): spread into one
    // argument each, spreading them cost more a row than the facility table's insert itself
    this.statementOf(this.rows).run(this.values);
    this.values.length = 0;
    this.rows = 0;
  }

  private statementOf(rows: number): Statement {
    let s = this.statements.get(rows);
    if (!s) {
      const one = `(${Array.from({ length: this.width }, () => '?').join(',')})`;
      s = this.db.prepare(`${this.verb} INTO ${this.table} VALUES ${Array.from({ length: rows }, () => one).join(',')}`);
      this.statements.set(rows, s);
    }
    return s;
  }
}
