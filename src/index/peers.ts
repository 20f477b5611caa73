import { t, type Static } from '../shared/typebox';

/** Peer groups need this many facilities; smaller ones widen to fewer NAICS digits (6, 4, 3, then 2). */
export const MIN_PEERS = 30;
export const PEER_DIGITS = [6, 4, 3, 2] as const;

/** `peers`: where the facility's score stands among facilities of the same industry. */
export const Peers = t.Object({
  naics: t.String({ description: 'NAICS code of the peer group (the facility\'s primary code, cut to naics_digits)', examples: ['332813'] }),
  naics_digits: t.Integer({ minimum: 2, maximum: 6, description: '6, else 4, 3 or 2: the longest prefix whose group holds at least 30 facilities' }),
  peer_count: t.Integer({ minimum: 1, description: 'Facilities in the group, this one included' }),
  percentile: t.Integer({ minimum: 0, maximum: 100, description: 'Whole percent of the group with a lower overall score (rounded down)' }),
  median_score: t.Integer({ minimum: 0, maximum: 100 }),
});
export type Peers = Static<typeof Peers>;

/** One row of table peer_rank: the peers of every facility with primary NAICS `naics` and overall score `score`. */
export type PeerRankRow = [naics: string, score: number, group: string, digits: number, count: number, percentile: number, median: number];

/** peer_rank.peers: the row's Peers as JSON text, keys in schema order. */
export function peersJson([, , group, digits, count, percentile, median]: PeerRankRow): string {
  const peers: Peers = { naics: group, naics_digits: digits, peer_count: count, percentile, median_score: median };
  return JSON.stringify(peers);
}

const SCORES = 101;

/**
 * Counts overall scores by primary NAICS code during ingest (a 101-bin histogram per code, so
 * memory is a few hundred KB however many facilities), then ranks every (code, score) pair at the end.
 */
export class PeerTally {
  private readonly byCode = new Map<string, Uint32Array>();

  add(naics: string, score: number): void {
    if (naics.length < 2 || !(score >= 0 && score < SCORES)) return;
    let h = this.byCode.get(naics);
    if (!h) this.byCode.set(naics, (h = new Uint32Array(SCORES)));
    h[score]!++;
  }

  /** The peer_rank rows: for each code and each score present, its group, rank and the group's median. */
  *rows(): Generator<PeerRankRow> {
    const groups = new Map<string, Uint32Array>();
    for (const [code, h] of this.byCode) {
      for (const d of PEER_DIGITS) {
        if (code.length < d) continue;
        const prefix = code.slice(0, d);
        let g = groups.get(prefix);
        if (!g) groups.set(prefix, (g = new Uint32Array(SCORES)));
        for (let s = 0; s < SCORES; s++) g[s]! += h[s]!;
      }
    }
    const summary = new Map<string, { count: number; below: Uint32Array; median: number }>();
    const summarise = (prefix: string) => {
      let known = summary.get(prefix);
      if (known) return known;
      const g = groups.get(prefix)!;
      const below = new Uint32Array(SCORES);
      let count = 0;
      for (let s = 0; s < SCORES; s++) [below[s], count] = [count, count + g[s]!];
      known = { count, below, median: lowerMedian(g, count) };
      summary.set(prefix, known);
      return known;
    };
    for (const [code, h] of this.byCode) {
      const digits = PEER_DIGITS.filter((d) => code.length >= d);
      // the widest group is used even when it is still under MIN_PEERS: peer_count says how small it is
      const d = digits.find((k) => groups.get(code.slice(0, k))!.reduce((a, b) => a + b, 0) >= MIN_PEERS) ?? digits[digits.length - 1]!;
      const prefix = code.slice(0, d);
      const g = summarise(prefix);
      for (let s = 0; s < SCORES; s++) {
        if (h[s] === 0) continue;
        yield [code, s, prefix, d, g.count, Math.floor((100 * g.below[s]!) / g.count), g.median];
      }
    }
  }
}

/** The lower median of a score histogram holding `count` facilities. */
function lowerMedian(h: Uint32Array, count: number): number {
  const rank = Math.ceil(count / 2);
  let seen = 0;
  for (let s = 0; s < h.length; s++) {
    seen += h[s]!;
    if (seen >= rank) return s;
  }
  return 0;
}
