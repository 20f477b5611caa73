import { describe, expect, it } from 'bun:test';
import { statusOf } from '../../src/scoring/facts';

describe('reading FAC_COMPLIANCE_STATUS', () => {
  it.each([
    ['No Violation Identified', 'none'],
    ['Violation Identified', 'violation'],
    ['Significant Violation', 'significant'],
    ['  significant violation ', 'significant'],
    ['Failure to Report DMR - Not Received', 'violation'],
    ['Effluent - Monthly Average Limit Exceeded', 'violation'],
    ['Significant Noncompliance', 'significant'],
    ['High Priority Violation (HPV)', 'significant'],
    // the Clean Air Act's SNC, as facility-search files spell it without an HPV flag column
    ['High Priority Violation', 'significant'],
    ['high-priority violation', 'significant'],
    ['Non-Significant Violation', 'violation'],
    ['Noncompliance', 'violation'],
    ['Not Applicable', 'none'],
    ['Unknown', 'none'],
    ['Terminated Permit', 'none'],
    ['', 'none'],
  ] as const)('%p means %p', (status, expected) => {
    expect(statusOf(status)).toBe(expected);
    expect(statusOf(status)).toBe(expected); // the memoised second reading agrees
  });

  it('treats a non-string status as saying nothing', () => {
    expect(statusOf(null)).toBe('none');
    expect(statusOf(42)).toBe('none');
  });
});
