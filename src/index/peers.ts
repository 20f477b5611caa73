import { t, type Static } from '../shared/typebox';

/** Peer groups need this many facilities; smaller ones widen to fewer NAICS digits (6, 4, 3, then 2), and one still smaller has no percentile. */
export const MIN_PEERS = 30;
export const PEER_DIGITS = [6, 4, 3, 2] as const;

/** `peers`: where the facility's score stands among facilities of the same industry. */
export const Peers = t.Object({
  naics: t.String({ description: 'NAICS code of the peer group (the facility\'s primary code, cut to naics_digits)', examples: ['332813'] }),
  naics_digits: t.Integer({ minimum: 2, maximum: 6, description: '6, else 4, 3 or 2: the longest prefix whose group holds at least 30 facilities' }),
  peer_count: t.Integer({ minimum: 1, description: 'Facilities in the group, this one included' }),
  percentile: t.Union([t.Integer({ minimum: 0, maximum: 100 }), t.Null()], {
    description:
      'Mid-rank percentile: whole percent of the group scoring lower, plus half of those with the same score (this one included), rounded down; ' +
      'null when the group holds fewer than 30 facilities even at 2 digits (percentile_note says why)',
  }),
  percentile_note: t.Union([t.String(), t.Null()], { description: 'Why percentile is null; null when it is given' }),
  median_score: t.Integer({ minimum: 0, maximum: 100 }),
  share_scoring_better: t.Union([t.Number({ minimum: 0, maximum: 1 }), t.Null()], {
    description: 'Share of the group (0-1, 4 decimals) scoring higher than this facility; null for an index built before it was stored',
  }),
  share_tied: t.Union([t.Number({ minimum: 0, maximum: 1 }), t.Null()], {
    description: 'Share of the group (0-1, 4 decimals) with the same score, this facility included: "tied with 59% of peers at the top score" reads this; null for an index built before it was stored',
  }),
});
export type Peers = Static<typeof Peers>;

/** A share of a group, 0-1 with 4 decimals. */
const share = (n: number, count: number) => Math.round((10_000 * n) / count) / 10_000;

/**
 * The Peers of a peer_rank row. A group still under MIN_PEERS after widening gets no percentile: in a
 * handful of facilities one more or less moves it by tens of points, which would read as a ranking.
 */
export function peersOfGroup(naics: string, digits: number, count: number, percentile: number, median: number, better: number | null = null, same: number | null = null): Peers {
  const small = count < MIN_PEERS;
  return {
    naics,
    naics_digits: digits,
    peer_count: count,
    percentile: small ? null : percentile,
    percentile_note: small ? `only ${count} ${count === 1 ? 'facility has' : 'facilities have'} NAICS code ${naics}, and a percentile needs at least ${MIN_PEERS}` : null,
    median_score: median,
    share_scoring_better: better === null ? null : share(better, count),
    share_tied: same === null ? null : share(same, count),
  };
}

/** A stored peers object as the API gives it: an index built before the shares were stored has none (null). */
export function peersOfStored(json: string): Peers {
  const p = JSON.parse(json) as Peers;
  p.share_scoring_better ??= null;
  p.share_tied ??= null;
  return p;
}

/** Mid-rank percentile of a score with `below` facilities scoring lower and `same` scoring the same (itself included), of `count`. */
export function midRankPercentile(below: number, same: number, count: number): number {
  return Math.floor((100 * (below + same / 2)) / count);
}

/**
 * One row of table peer_rank: the peers of every facility with primary NAICS `naics` and overall score
 * `score`; `better` and `same` (how many of the group score higher, and the same) go into its JSON only.
 */
export type PeerRankRow = [naics: string, score: number, group: string, digits: number, count: number, percentile: number, median: number, better: number, same: number];

/** peer_rank.peers: the row's Peers as JSON text, keys in schema order. */
export function peersJson([, , group, digits, count, percentile, median, better, same]: PeerRankRow): string {
  return JSON.stringify(peersOfGroup(group, digits, count, percentile, median, better, same));
}

const SCORES = 101;

/**
 * Counts overall scores by primary NAICS code during ingest (facilities with enough data to judge
 * only: one that is inactive or has nothing on record is nobody's peer) (a 101-bin histogram per code, so
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
        // peer_rank.percentile (NOT NULL) keeps the mid-rank even for a small group; peersOfGroup withholds it
        const same = groups.get(prefix)![s]!;
        yield [code, s, prefix, d, g.count, midRankPercentile(g.below[s]!, same, g.count), g.median, g.count - g.below[s]! - same, same];
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
