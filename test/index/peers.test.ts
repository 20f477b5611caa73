import { describe, expect, it } from 'bun:test';
import { MIN_PEERS, PeerTally, midRankPercentile, peersJson, peersOfGroup } from '../../src/index/peers';
import { CLEAN_INPUTS, facility, memoryIndex } from '../helpers';

/** The peer_rank rows of a tally holding `scores` under one NAICS code. */
function rank(naics: string, scores: number[]) {
  const t = new PeerTally();
  for (const s of scores) t.add(naics, s);
  return new Map([...t.rows()].map((r) => [r[1], r]));
}

describe('industry peers', () => {
  it('rank by mid-rank: facilities with the same score count half', () => {
    // 40 facilities: 10 at 60, 30 at 100
    const rows = rank('332813', [...Array(10).fill(60), ...Array(30).fill(100)]);
    // a clean facility tied with most of its group sits mid-way among them: 10 lower + 30 / 2 = 25 of 40
    expect(rows.get(100)![5]).toBe(62);
    expect(rows.get(60)![5]).toBe(12); // 0 lower + 10 / 2 of 40 = 12.5, rounded down
    expect(midRankPercentile(10, 30, 40)).toBe(62);
  });

  it('a whole group tied at 100 puts each facility at the 50th percentile, not the 0th', () => {
    expect(rank('332813', Array(35).fill(100)).get(100)![5]).toBe(50);
  });

  it('a group still under 30 after widening to 2 digits gets no percentile, with its size and why', () => {
    const rows = rank('332813', [70, 80, 90, 95, 100]);
    const peers = JSON.parse(peersJson(rows.get(90)!));
    expect(peers).toEqual({
      naics: '33', naics_digits: 2, peer_count: 5, percentile: null,
      percentile_note: `only 5 facilities have NAICS code 33, and a percentile needs at least ${MIN_PEERS}`,
      median_score: 90,
      share_scoring_better: 0.4,
      share_tied: 0.2,
    });
  });

  it('says how many of the group score better and how many tie, so a page can say "tied with 75% of peers at the top score"', () => {
    // 40 facilities: 10 at 60, 30 at 100 (the mid-rank reads 62nd and 12th)
    const rows = rank('332813', [...Array(10).fill(60), ...Array(30).fill(100)]);
    expect(JSON.parse(peersJson(rows.get(100)!))).toMatchObject({ percentile: 62, share_scoring_better: 0, share_tied: 0.75 });
    expect(JSON.parse(peersJson(rows.get(60)!))).toMatchObject({ percentile: 12, share_scoring_better: 0.75, share_tied: 0.25 });
  });

  it('leaves facilities with not enough data out of every peer group', () => {
    const clean = (id: string) => facility({ registry_id: id, fac_naics: '332813', overall_score: 100, score_inputs: CLEAN_INPUTS });
    const rows = [...Array.from({ length: 30 }, (_, i) => clean(`99000000${String(i).padStart(4, '0')}`))];
    // inactive, and nothing on record: scored 100 like the clean ones, but not counted among their peers
    const blind = { ...CLEAN_INPUTS, facility_active: false, inspection_count: 0, date_last_inspection: null, history: 'UUUUUUUUUUUU' };
    for (let i = 0; i < 10; i++) rows.push(facility({ registry_id: `99000001${String(i).padStart(4, '0')}`, fac_naics: '332813', overall_score: 100, score_inputs: blind }));
    const index = memoryIndex(rows, { as_of: '2025-06-30' });
    try {
      expect(index.getDetail('990000000000')!.peers).toMatchObject({ naics: '332813', peer_count: 30 });
      expect(index.getDetail('990000010000')!.data_completeness.sufficient).toBe(false);
    } finally {
      index.close();
    }
  });

  it('a group of exactly 30 gets its percentile', () => {
    expect(peersOfGroup('3328', 4, MIN_PEERS, 40, 90).percentile).toBe(40);
    expect(peersOfGroup('3328', 4, MIN_PEERS - 1, 40, 90)).toMatchObject({ percentile: null, peer_count: MIN_PEERS - 1 });
  });
});
