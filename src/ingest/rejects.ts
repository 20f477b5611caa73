import { renameSync, rmSync } from 'node:fs';
import type { FileSink } from 'bun';
import { buildTempPath } from '../index/index-writer';
import { csvField } from './csv-records';
import type { RejectReason } from './row-mapper';

/** The rejects file that goes with an index file. */
export function rejectsPathOf(indexPath: string): string {
  return `${indexPath}.rejects.csv`;
}

/** `<index>.rejects.csv`: every row not indexed, with where it was and why; the record as it was read. */
export class RejectsWriter {
  readonly path: string;
  private readonly tmp: string;
  private readonly sink: FileSink;

  constructor(indexPath: string) {
    this.path = rejectsPathOf(indexPath);
    this.tmp = buildTempPath(this.path);
    this.sink = Bun.file(this.tmp).writer({ highWaterMark: 1 << 20 });
    this.sink.write('file,line,reason,detail,registry_id,record\n');
  }

  add(file: string, line: number, reason: RejectReason, detail: string, registryId: string, fields: string[]): void {
    const record = fields.map(csvField).join(',');
    this.sink.write([file, String(line), reason, detail, registryId, record].map(csvField).join(',') + '\n');
  }

  /** Written even when empty, so an old rejects file never describes a new index. */
  async finish(): Promise<void> {
    await this.sink.end();
    renameSync(this.tmp, this.path);
  }

  async abort(): Promise<void> {
    try {
      await this.sink.end();
    } finally {
      rmSync(this.tmp, { force: true });
    }
  }
}
