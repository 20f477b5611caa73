import { describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { AREA_H3_RES, registryIdAt } from '../../src/area/spatial-index';
import { nameAt, textsOf } from '../../src/area/text-bytes';
import { loadSpatialFile, spatialFilePath } from '../../src/index/area/spatial-file';
import { FacilityIndex, connectionOf } from '../../src/index/facility-index';
import { indexIdentity } from '../../src/index/identity';
import { siteFactsOfBits, type SiteFacts } from '../../src/index/site-facts';
import { siteFactsOfRecord } from '../../src/site-report/facts';
import { SAMPLE } from '../../scripts/sample';

/** The facts in the order of their bits (the stored format: facility.site_facts and the area file). */
const inBitOrder = (f: SiteFacts) => [f.significant, f.formalActionInWindow, f.programs.caa, f.programs.cwa, f.programs.rcra, f.programs.sdwa, f.rcraTsd, f.rcraGenerator, f.tri, f.caaMajor];

describe('site facts as bits', () => {
  it('read back bit by bit: each fact has its own bit, in the stored order, and no other bit means anything', () => {
    for (let k = 0; k < 10; k++) expect(inBitOrder(siteFactsOfBits(1 << k))).toEqual(Array.from({ length: 10 }, (_, i) => i === k));
    fc.assert(fc.property(fc.integer({ min: 0, max: 1023 }), (b) => {
      expect(inBitOrder(siteFactsOfBits(b))).toEqual(Array.from({ length: 10 }, (_, i) => (b & (1 << i)) !== 0));
    }));
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
