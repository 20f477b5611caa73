import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { csvField } from '../../src/ingest/csv-records';
import { EXPORTER_COLUMNS_2025 } from '../../src/ingest/exporter-columns';
import { ingest, type IngestOptions } from '../../src/ingest/ingest';

export const FIXTURES = join(import.meta.dir, 'fixtures');


type Col = (typeof EXPORTER_COLUMNS_2025)[number];

/** A clean, fictitious exporter row (registry ID 99...); override any column by its exporter name. */
export function exporterRow(overrides: Partial<Record<Col, string>> = {}): Partial<Record<Col, string>> {
  return {
    REGISTRY_ID: '990000000001',
    FAC_NAME: 'QUORVEX PLATING LLC',
    FAC_STREET: '100 MILL RD',
    FAC_CITY: 'HOUSTON',
    FAC_STATE: 'TX',
    FAC_ZIP: '77002',
    FAC_LAT: '29.7569',
    FAC_LONG: '-95.3625',
    FAC_INSPECTION_COUNT: '2',
    FAC_DATE_LAST_INSPECTION: '10/01/2026',
    FAC_DAYS_LAST_INSPECTION: '30',
    FAC_QTRS_WITH_NC: '0',
    FAC_COMPLIANCE_STATUS: 'No Violation Identified',
    FAC_SNC_FLG: 'N',
    FAC_3YR_COMPLIANCE_HISTORY: '____________',
    FAC_NAICS_CODES: '332813 423930',
    ...overrides,
  };
}

/** CSV text with the given header (default: exactly the 2025 exporter header) and rows. */
export function csvText(rows: Partial<Record<string, string>>[], opts: { columns?: readonly string[]; eol?: string } = {}): string {
  const columns = opts.columns ?? EXPORTER_COLUMNS_2025;
  const eol = opts.eol ?? '\n';
  return [columns.join(','), ...rows.map((r) => columns.map((c) => csvField(r[c] ?? '')).join(','))].join(eol) + eol;
}

export function writeFile(dir: string, name: string, text: string | Uint8Array, gzip = false): string {
  const path = join(dir, name);
  writeFileSync(path, gzip ? gzipSync(typeof text === 'string' ? Buffer.from(text) : text) : text);
  return path;
}

/** Runs ingest quietly, collecting what it would print. */
export async function runIngest(files: string[], out: string, extra: Partial<IngestOptions> = {}) {
  const logged: string[] = [];
  const summary = await ingest({ files, out, log: (l) => logged.push(l), ...extra });
  return { summary, logged };
}
