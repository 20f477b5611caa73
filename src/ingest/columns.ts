import type { Program } from '../scoring/model';
import { UnusableInputError } from './errors';
import { readEvidenceColumns, type EvidenceColumnMap } from './evidence-columns';
import { readFecColumns, readProgramColumns, type FecColumnMap, type ProgramColumnMap } from './program-columns';

/**
 * Header -> column positions, by name. Both ECHO layouts name the same things (`FAC_QTRS_WITH_NC` in the
 * exporter, `FacQtrsWithNC` in facility-search downloads), so names are compared with case and
 * punctuation removed. Older exporter layouts with extra or missing columns work the same way.
 */
export type SourceFormat = 'echo-exporter' | 'echo-facility-search';

/** Fields ingest reads, and the normalised header names that supply each (first match wins). */
const FIELD_NAMES = {
  registry_id: ['registryid'],
  dfr_url: ['dfrurl'],
  name: ['facname'],
  street: ['facstreet'],
  city: ['faccity'],
  state: ['facstate'],
  zip: ['faczip', 'facderivedzip'],
  lat: ['faclat'],
  lng: ['faclong', 'faclng'],
  accuracy_m: ['facaccuracymeters'],
  collection_method: ['faccollectionmethod'],
  naics: ['facnaicscodes', 'facnaics'],
  qtrs_with_nc: ['facqtrswithnc'],
  history: ['fac3yrcompliancehistory'],
  compliance_status: ['faccompliancestatus'],
  snc_flag: ['facsncflg'],
  programs_with_snc: ['facprogramswithsnc'],
  inspection_count: ['facinspectioncount'],
  informal_count: ['facinformalcount'],
  formal_count: ['facformalactioncount'],
  penalty_count: ['facpenaltycount'],
  total_penalties: ['factotalpenalties'],
  last_penalty: ['faclastpenaltyamt'],
  date_last_penalty: ['facdatelastpenalty'],
  date_last_formal: ['facdatelastformalaction'],
  date_last_informal: ['facdatelastinformalaction'],
  date_last_inspection: ['facdatelastinspection'],
  days_last_inspection: ['facdayslastinspection'],
  active_flag: ['facactiveflag'],
} as const;

export type Field = keyof typeof FIELD_NAMES;
/** Position of each field in a record, or -1 when the file has no such column. */
export type ColumnMap = Record<Field, number>;

/** Without these the file cannot be indexed at all (an ID source and a location). */
const REQUIRED_ANY_OF: readonly (readonly Field[])[] = [['registry_id', 'dfr_url'], ['lat'], ['lng']];

/** Compliance fields whose absence ingest reports (the score then treats them as zero / unknown). */
export const SCORE_FIELDS: readonly Field[] = [
  'qtrs_with_nc', 'history', 'compliance_status', 'programs_with_snc', 'inspection_count', 'informal_count', 'formal_count',
  'penalty_count', 'total_penalties', 'last_penalty', 'date_last_penalty', 'date_last_formal', 'date_last_informal', 'date_last_inspection',
];

export const normalizeName = (h: string) => h.toLowerCase().replace(/[^a-z0-9]/g, '');

export type HeaderInfo = {
  format: SourceFormat; columns: ColumnMap; width: number; missing: Field[];
  /** Per-program and federal-case columns (fcs-2.0), and the score input fields the file has no column for. */
  programs: Record<Program, ProgramColumnMap | null>; fec: FecColumnMap; notReported: string[];
  /** The columns stored beside the score (src/index/evidence.ts). */
  evidence: EvidenceColumnMap;
};

/** Score input field (scoring/model.ts) each facility-level column feeds: absent column, `null` input. */
const INPUT_OF: Partial<Record<Field, string>> = {
  qtrs_with_nc: 'qtrs_with_nc', history: 'history', compliance_status: 'compliance_status', snc_flag: 'snc_flag',
  programs_with_snc: 'programs_in_snc', inspection_count: 'inspection_count',
  informal_count: 'informal_action_count', formal_count: 'formal_action_count', penalty_count: 'penalty_count',
  total_penalties: 'total_penalties_usd', last_penalty: 'last_penalty_usd', date_last_penalty: 'date_last_penalty',
  date_last_formal: 'date_last_formal_action', date_last_informal: 'date_last_informal_action', date_last_inspection: 'date_last_inspection',
};

/** Input fields with no column in this file, facility-level and federal cases, in a fixed order. */
function notReportedOf(columns: ColumnMap, fec: FecColumnMap): string[] {
  const out = (Object.entries(INPUT_OF) as [Field, string][]).filter(([f]) => columns[f] < 0).map(([, input]) => input);
  if (fec.cases < 0) out.push('federal_cases');
  if (fec.penalties < 0) out.push('federal_penalties_usd');
  if (fec.last_date < 0) out.push('date_last_federal_case');
  if (fec.case_ids < 0) out.push('federal_case_ids');
  if (columns.active_flag < 0) out.push('facility_active');
  return out;
}

/** Reads the header; throws a one-line explanation when the file is not an ECHO facility file. */
export function readHeader(header: string[]): HeaderInfo {
  const position = new Map<string, number>();
  header.forEach((h, i) => {
    const key = normalizeName(h);
    if (key && !position.has(key)) position.set(key, i);
  });
  const columns = {} as ColumnMap;
  for (const [field, names] of Object.entries(FIELD_NAMES) as [Field, readonly string[]][]) {
    columns[field] = names.map((n) => position.get(n)).find((p) => p !== undefined) ?? -1;
  }
  for (const anyOf of REQUIRED_ANY_OF) {
    if (anyOf.every((f) => columns[f] < 0)) {
      const shown = header.slice(0, 6).join(',');
      throw new UnusableInputError(`not an ECHO facility file: no ${anyOf.map((f) => FIELD_NAMES[f][0]).join(' or ')} column (header starts "${shown.slice(0, 80)}")`);
    }
  }
  // the exporter spells columns in UPPER_SNAKE; facility-search downloads in CamelCase
  const format: SourceFormat = header.includes('REGISTRY_ID') || header.includes('FAC_LAT') ? 'echo-exporter' : 'echo-facility-search';
  const fec = readFecColumns(position);
  return {
    format, columns, width: header.length, missing: SCORE_FIELDS.filter((f) => columns[f] < 0),
    programs: readProgramColumns(position), fec, notReported: notReportedOf(columns, fec), evidence: readEvidenceColumns(position),
  };
}
