import { describe, expect, it } from 'bun:test';
import { peersLine } from '../../src/reports/document';
import { peersOfGroup } from '../../src/index/peers';
import type { ReportView } from '../../src/reports/model';

const view = (peers: ReportView['peers'], fac_naics = '332813') => ({ peers, fac_naics }) as ReportView;

describe("the PDF's peers line", () => {
  it('says where the score ranks (mid-rank, ties counted half), not that it is higher than the others', () => {
    expect(peersLine(view(peersOfGroup('332813', 6, 1204, 62, 100)))).toBe('Ranks at the 62nd percentile of 1,204 facilities, NAICS 332813 (ties count half)');
    expect(peersLine(view(peersOfGroup('332813', 6, 40, 11, 90)))).toBe('Ranks at the 11th percentile of 40 facilities, NAICS 332813 (ties count half)');
    expect(peersLine(view(peersOfGroup('332813', 6, 40, 1, 90)))).toBe('Ranks at the 1st percentile of 40 facilities, NAICS 332813 (ties count half)');
  });

  it('gives no percentile for a group under 30, with its size', () => {
    expect(peersLine(view(peersOfGroup('33', 2, 5, 40, 90)))).toBe('No percentile: only 5 facilities, NAICS 33 (30 needed)');
  });

  it('says why there is no peer group', () => {
    expect([peersLine(view(null)), peersLine(view(null, ''))]).toEqual(['No peer group', 'No NAICS code, no peer group']);
  });
});
