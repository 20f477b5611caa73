import { describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { AREA_H3_RES, registryIdAt } from '../../src/area/spatial-index';
import { nameAt, textsOf } from '../../src/area/text-bytes';
import { loadSpatialFile, spatialFilePath } from '../../src/index/area/spatial-file';
import { FacilityIndex, connectionOf } from '../../src/index/facility-index';
import { indexIdentity } from '../../src/index/identity';
import { siteFactBitsOf, siteFactsOfBits, type SiteFacts } from '../../src/index/site-facts';
import { dataCompleteness } from '../../src/scoring/completeness';
import { factsOf } from '../../src/scoring/facts';
import { inputsWith } from '../helpers';
import { facilitySearchArb, scenarioArb } from '../scoring/arbitraries';
import { siteFactsOfRecord } from '../../src/site-report/facts';
import { SAMPLE } from '../../scripts/sample';

/** The facts in the order of their bits (the stored format: facility.site_facts and the area file). */
const inBitOrder = (f: SiteFacts) => [f.significant, f.formalActionInWindow, f.programs.caa, f.programs.cwa, f.programs.rcra, f.programs.sdwa, f.rcraTsd, f.rcraGenerator, f.tri, f.caaMajor, f.insufficientData];
const FACTS = inBitOrder(siteFactsOfBits(0)).length;

describe('site facts as bits', () => {
  it('read back bit by bit: each fact has its own bit, in the stored order, and no other bit means anything', () => {
    expect(FACTS).toBe(11);
    for (let k = 0; k < FACTS; k++) expect(inBitOrder(siteFactsOfBits(1 << k))).toEqual(Array.from({ length: FACTS }, (_, i) => i === k));
    fc.assert(fc.property(fc.integer({ min: 0, max: (1 << FACTS) - 1 }), (b) => {
      expect(inBitOrder(siteFactsOfBits(b))).toEqual(Array.from({ length: FACTS }, (_, i) => (b & (1 << i)) !== 0));
    }));
  });
});

describe('the not-enough-data bit', () => {
  const AS_OF = '2025-06-30';
  const bitOf = (inputs: ReturnType<typeof inputsWith>, asOf = AS_OF) => siteFactsOfBits(siteFactBitsOf(factsOf(inputs, asOf), inputs.programs, null)).insufficientData;
  const NONE = { inspection_count: 0, date_last_inspection: null };

  it.each([
    ['FAC_ACTIVE_FLAG Y, then N', inputsWith({}), inputsWith({ facility_active: false })],
    ['no inspection in 5 years and a 12-quarter history of known status, then of unknown (U) quarters', inputsWith({ ...NONE }), inputsWith({ ...NONE, history: 'UUUUUUUUUUUU' })],
    ['an inspection and no quarter of known status, then no inspection', inputsWith({ history: 'UUUUUUUUUUUU' }), inputsWith({ ...NONE, history: 'UUUUUUUUUUUU' })],
  ])('is clear, then set, as one input changes: %s', (_name, judged, unjudged) => {
    expect([bitOf(judged), bitOf(unjudged)]).toEqual([false, true]);
  });

  it('is set exactly when data_completeness.sufficient is false, for any exporter or facility-search scenario', () => {
    for (const arb of [scenarioArb, facilitySearchArb]) {
      fc.assert(fc.property(arb, ({ inputs, asOf }) => {
        expect(bitOf(inputs, asOf)).toBe(!dataCompleteness(factsOf(inputs, asOf), 'echo-exporter').sufficient);
      }));
    }
  });
});

describe('the site facts of the bundled sample', () => {
  const index = FacilityIndex.open(SAMPLE.index);
  const rows = connectionOf(index).query('SELECT registry_id, site_facts FROM facility ORDER BY registry_id').all() as { registry_id: string; site_facts: number }[];

  it('are stored for every facility as derived again from its full record at the as-of date', () => {
    const distinct = new Set<number>();
    for (const r of rows) {
      const d = index.getDetail(r.registry_id)!;
      expect({ id: r.registry_id, facts: siteFactsOfBits(r.site_facts) }).toEqual({ id: r.registry_id, facts: siteFactsOfRecord(d.score_inputs, d.evidence, index.info.as_of) });
      distinct.add(r.site_facts);
    }
    expect(rows.length).toBe(index.info.facility_count);
    // the sample exercises the categories: many combinations, SNC and TRI among them
    expect(distinct.size).toBeGreaterThan(20);
    expect([...distinct].some((b) => siteFactsOfBits(b).significant)).toBe(true);
    expect([...distinct].some((b) => siteFactsOfBits(b).tri)).toBe(true);
  });

  it('say "not enough data" for exactly the facilities whose lookup says data_completeness.sufficient false; the sample has both', () => {
    const unjudged = new Set(rows.filter((r) => siteFactsOfBits(r.site_facts).insufficientData).map((r) => r.registry_id));
    const bySufficiency = new Set(rows.filter((r) => index.getDetail(r.registry_id)!.data_completeness.sufficient === false).map((r) => r.registry_id));
    expect(unjudged).toEqual(bySufficiency);
    expect(unjudged.size).toBeGreaterThan(0);
    expect(unjudged.size).toBeLessThan(rows.length);
  });

  it('and the release\'s area file holds each placed facility\'s facts, name and address as its row does', () => {
    const loaded = loadSpatialFile(spatialFilePath(SAMPLE.index), indexIdentity(index.info), AREA_H3_RES);
    if (!loaded.ok) throw new Error(loaded.reason);
    const s = loaded.spatial;
    const byId = new Map(rows.map((r) => [r.registry_id, r.site_facts]));
    expect(s.count).toBe(index.info.facility_count - index.info.facilities_without_location);
    const texts = textsOf(s);
    for (let p = 0; p < s.count; p++) {
      const id = registryIdAt(s, p);
      const d = index.getDetail(id)!;
      const a = texts.address(p);
      expect({ id, site: s.site[p], name: nameAt(s, p), street: a.street, city: a.city, zip: a.zip, state: s.states[s.state[p]!] }).toEqual({
        id, site: byId.get(id), name: d.fac_name, street: d.fac_street, city: d.fac_city, zip: d.fac_zip, state: d.fac_state,
      });
    }
  });
});
