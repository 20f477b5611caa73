import { describe, expect, it } from 'bun:test';
import { MIN_PEERS, PeerTally, midRankPercentile, peersJson, peersOfGroup } from '../../src/index/peers';

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
    });
  });

  it('a group of exactly 30 gets its percentile', () => {
    expect(peersOfGroup('3328', 4, MIN_PEERS, 40, 90).percentile).toBe(40);
    expect(peersOfGroup('3328', 4, MIN_PEERS - 1, 40, 90)).toMatchObject({ percentile: null, peer_count: MIN_PEERS - 1 });
  });
});
