import { describe, expect, it } from 'bun:test';
import { defaultDistances } from '../../src/site-report/categories';
import { siteReportKey } from '../../src/site-report/export';
import type { SiteQuery } from '../../src/site-report/service';
import { VERSION } from '../../src/version';
import { memoryIndex } from '../helpers';

const query: SiteQuery = {
  site: { lat: 29.7604, lng: -95.3698, located_by: 'coordinates', approximate: false, zip: '77002', matched_registry_id: null, note: 'test' },
  name: 'Main Avenue lot',
  address: null,
  distances: defaultDistances(),
};

describe("a site report PDF's cache key", () => {
  it('is new with a new product version, so an upgrade that rewords the report never serves the old wording', () => {
    const info = memoryIndex([]).info;
    expect(siteReportKey(query, info, '0.1.0')).not.toBe(siteReportKey(query, info, '0.2.0'));
  });

  it("of this build carries this build's version", () => {
    const info = memoryIndex([]).info;
    expect(siteReportKey(query, info)).toBe(siteReportKey(query, info, VERSION));
    expect(siteReportKey(query, info)).not.toBe(siteReportKey(query, info, `${VERSION}+other`));
  });
});
