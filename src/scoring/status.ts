/** What a compliance-status text says about the current quarter. */
export type CurrentStatus = 'none' | 'violation' | 'significant';

/**
 * What FAC_COMPLIANCE_STATUS (or a program's status) says about the current quarter. ECHO publishes
 * 'No Violation Identified', 'Violation Identified' and 'Significant Violation' at facility level; the
 * Clean Air Act's 'High Priority Violation' (HPV) is its significant violation, so it is significant
 * even in a file with no HPV flag column (facility-search downloads). Program-level texts such as
 * 'Failure to Report DMR' or 'Effluent exceedance' mean a violation. Anything else (blank, 'Unknown',
 * 'Not Applicable', 'Terminated Permit') says nothing.
 */
export function statusOf(status: unknown): CurrentStatus {
  if (typeof status !== 'string') return 'none';
  // a national file holds a handful of distinct texts: classify each once (bounded, so junk cannot grow it)
  const known = STATUS_MEMO.get(status);
  if (known) return known;
  const result = classifyStatus(status);
  if (STATUS_MEMO.size < 1000) STATUS_MEMO.set(status, result);
  return result;
}

const STATUS_MEMO = new Map<string, CurrentStatus>();

/** A status text naming significant non-compliance: SNC, or the Clean Air Act's high priority violation. */
export const SIGNIFICANT_STATUS = /significant|\bsnc\b|\bhpv\b|high[ -]priority/i;
const NOT_SIGNIFICANT = /non-?significant|not significant/i;

function classifyStatus(status: string): CurrentStatus {
  const s = status.trim().toLowerCase();
  if (s === '' || /^(no |not |none|unknown|undetermined)/.test(s)) return 'none';
  if (SIGNIFICANT_STATUS.test(s) && !NOT_SIGNIFICANT.test(s)) return 'significant';
  if (/violation|noncompliance|non-compliance|failure|exceed/.test(s)) return 'violation';
  return 'none';
}

/** True when a status text names significant non-compliance (what ingest reads into a program's `significant`). */
export function namesSignificant(status: string): boolean {
  return statusOf(status) === 'significant';
}
