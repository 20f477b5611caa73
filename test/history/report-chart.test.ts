import { beforeAll, describe, expect, it } from 'bun:test';
import { FacilityIndex } from '../../src/index/facility-index';
import { scoreSeries } from '../../src/history/score-series';
import type { HistoryEntry, Release } from '../../src/index/history-tables/model';
import { makeWorld, type TestWorld } from '../helpers';
import { pdfPages, pdfText, qpdfCheck } from '../reports/pdf-tools';
import { facilityTuples, threeReleases, type ScoreTuple, type ThreeReleases } from './releases';

let r: ThreeReleases;
let w: TestWorld;
let key: string;
let tuples: Map<string, ScoreTuple>[];
// the generator's place table takes seconds to build on a loaded machine
beforeAll(async () => {
  r = await threeReleases();
  w = makeWorld({ deps: { index: FacilityIndex.open(r.chained[2]) }, config: { reportCacheDir: 'off' } });
  key = (await w.keyFor('platform')).key;
  tuples = r.plain.map(facilityTuples);
}, 120_000);

const report = async (id: string) => new Uint8Array(await (await w.call(`/api/v1/facility/${id}/report`, { method: 'POST', key })).arrayBuffer());

describe('the PDF dossier shows the score over time', () => {
  it('a facility whose score changed: chart section with the first and last release and the scores, in a valid PDF of two pages', async () => {
    const id = [...tuples[2]!.keys()].find((x) => {
      const s = [0, 1, 2].map((i) => tuples[i]!.get(x)?.overall_score);
      return s[0] !== undefined && s[0] !== s[2];
    })!;
    const [first, , last] = [0, 1, 2].map((i) => tuples[i]!.get(id)!.overall_score);
    const pdf = await report(id);
    expect(qpdfCheck(pdf).ok).toBe(true);
    expect(pdfPages(pdf)).toBe(2);
    const text = pdfText(pdf);
    expect(text).toContain('SCORE OVER TIME');
    expect(text).toContain(`3 weekly releases from 2026-10-31 to 2026-11-14: score ${first} then ${last}`);
  });

  it('a facility whose score never changed: the chart says it stayed', async () => {
    const id = [...tuples[2]!.keys()].find((x) => [0, 1].every((i) => JSON.stringify(tuples[i]!.get(x)) === JSON.stringify(tuples[2]!.get(x))))!;
    const text = pdfText(await report(id));
    expect(text).toContain(`3 weekly releases from 2026-10-31 to 2026-11-14: the score stayed at ${tuples[2]!.get(id)!.overall_score}.`);
  });

  it('an index of one release says the history starts here instead of drawing a chart', async () => {
    const one = makeWorld({ deps: { index: FacilityIndex.open(r.plain[2]) }, config: { reportCacheDir: 'off' } });
    const k = (await one.keyFor('platform')).key;
    const id = [...tuples[2]!.keys()][0]!;
    const pdf = new Uint8Array(await (await one.call(`/api/v1/facility/${id}/report`, { method: 'POST', key: k })).arrayBuffer());
    expect(pdfText(pdf)).toContain('This service holds one release for this facility (as of 2026-11-14): its score history starts here.');
  });
});

describe('scoreSeries', () => {
  const release = (seq: number): Release => ({ seq, as_of: `2026-11-0${seq}`, score_version: 'm', dataset_name: 'd', facility_count: 1 });
  const entry = (seq: number, change: HistoryEntry['change'], overall: number | null): HistoryEntry => ({
    seq, as_of: `2026-11-0${seq}`, score_version: 'm', change, overall_score: overall,
    violation_frequency: null, penalty_severity: null, recency: null, repeat_offender: null, active_enforcement: null,
  });
  const releases = [1, 2, 3, 4, 5].map(release);

  it('carries each score forward to the releases without an entry, from the first appearance on', () => {
    expect(scoreSeries([entry(4, 'changed', 60), entry(2, 'added', 80)], releases)).toEqual([
      { as_of: '2026-11-02', overall_score: 80 },
      { as_of: '2026-11-03', overall_score: 80 },
      { as_of: '2026-11-04', overall_score: 60 },
      { as_of: '2026-11-05', overall_score: 60 },
    ]);
  });

  it('a removal leaves a gap (null) until the facility comes back; only the last `max` releases', () => {
    const s = scoreSeries([entry(4, 'added', 70), entry(3, 'removed', null), entry(1, 'added', 90)], releases, 3);
    expect(s).toEqual([
      { as_of: '2026-11-03', overall_score: null },
      { as_of: '2026-11-04', overall_score: 70 },
      { as_of: '2026-11-05', overall_score: 70 },
    ]);
  });
});
