import { describe, expect, it } from 'bun:test';
import { parse } from 'csv-parse/sync';
import { json } from '../helpers';
import { destination } from '../area/fixtures';
import { pdfText } from '../reports/pdf-tools';
import { judgedPair, without, type PairWorld } from '../support/judged-pair';
import { R_MILES, withTraits } from './fixtures';

// Three facilities around the site, each in two worlds that differ in one input, FAC_ACTIVE_FLAG (Y, then N):
// one placed (a finding), one without coordinates in the site's ZIP and one at a ZIP centroid (both unmapped).
const SITE = { lat: 29.7604, lng: -95.3698 };
const plain = { snc: false, recentFormal: false, oldFormal: false, rcra: false, cwa: false, caa: false };
const PLACED = '990700000001';
const UNPLACED = '990700000002';
const CENTROID = '990700000003';
const pair = await judgedPair((active) => {
  const row = (id: string, at: { lat: number; lng: number }) => {
    const r = withTraits(id, at, plain, 96);
    return { ...r, score_inputs: { ...r.score_inputs, facility_active: active } };
  };
  return [
    row(PLACED, destination(SITE.lat, SITE.lng, 45, 0.1, R_MILES)),
    { ...row(UNPLACED, SITE), lat: null, lng: null },
    { ...row(CENTROID, SITE), loc_accuracy_m: 3000, loc_method: 'ZIP CODE-CENTROID' },
  ];
});
const BODY = JSON.stringify({ ...SITE, zip: '77002', name: 'Paired parcel' });
const ask = (w: PairWorld, format: string) => w.call(`/api/v1/site-report?format=${format}`, { method: 'POST', key: w.key, headers: { 'content-type': 'application/json' }, body: BODY });
const both = async <T>(read: (w: PairWorld) => Promise<T>) => ({ judged: await read(pair.judged), unjudged: await read(pair.unjudged) });

describe('a site report says which facilities have too little data to judge: one input changed, FAC_ACTIVE_FLAG Y, then N', () => {
  it('JSON: the finding and both unmapped facilities have data_sufficient true, then false; nothing else of theirs differs', async () => {
    const { judged, unjudged } = await both(async (w) => (await json(await ask(w, 'json'))).data);
    expect(judged.findings.map((f: any) => [f.registry_id, f.data_sufficient])).toEqual([[PLACED, true]]);
    expect(unjudged.findings.map((f: any) => [f.registry_id, f.data_sufficient])).toEqual([[PLACED, false]]);
    const unmapped = (r: any) => r.unmapped.facilities.map((f: any) => [f.registry_id, f.data_sufficient]).sort();
    expect(unmapped(judged)).toEqual([[UNPLACED, true], [CENTROID, true]].sort());
    expect(unmapped(unjudged)).toEqual([[UNPLACED, false], [CENTROID, false]].sort());
    expect(without(unjudged.findings[0], 'data_sufficient')).toEqual(without(judged.findings[0], 'data_sufficient'));
  });

  it('CSV: a data_sufficient column, true, then false; every other cell the same', async () => {
    const { judged, unjudged } = await both(async (w) => (parse(await (await ask(w, 'csv')).text(), { columns: true, record_delimiter: '\r\n' }) as Record<string, string>[]));
    expect(judged.map((r) => [r.registry_id, r.data_sufficient])).toEqual([[PLACED, 'true']]);
    expect(unjudged.map((r) => [r.registry_id, r.data_sufficient])).toEqual([[PLACED, 'false']]);
    expect(without(unjudged[0]!, 'data_sufficient')).toEqual(without(judged[0]!, 'data_sufficient'));
  });

  it('GeoJSON: a data_sufficient property, true, then false', async () => {
    const { judged, unjudged } = await both(async (w) => JSON.parse(await (await ask(w, 'geojson')).text()).features);
    expect(judged.map((f: any) => [f.id, f.properties.data_sufficient])).toEqual([[PLACED, true]]);
    expect(unjudged.map((f: any) => [f.id, f.properties.data_sufficient])).toEqual([[PLACED, false]]);
  });

  it('PDF: the score cells of the finding and both unmapped rows, and the map legend, say "Not enough data" in place of the band', async () => {
    const { judged, unjudged } = await both(async (w) => pdfText(new Uint8Array(await (await ask(w, 'pdf')).arrayBuffer())));
    expect(judged).toContain('Good (90-100): 1');
    expect(judged).not.toContain('enough');
    expect(unjudged).toContain('Good (90-100): 0');
    expect(unjudged).toContain('Not enough data: 1');
    // each score cell: the score, then the words on two lines (the finding's and the two unmapped rows')
    expect(unjudged.match(/96 Not enough data/g)).toHaveLength(3);
    expect(judged.match(/96 Good/g)).toHaveLength(1);
  });
});
