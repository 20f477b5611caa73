import { describe, expect, it } from 'bun:test';
import { buildSpatialIndex } from '../../src/index/area/spatial-columns';
import { defaultDistances } from '../../src/site-report/categories';
import { renderSiteReport } from '../../src/site-report/document';
import { borderLines } from '../../src/site-report/base-layer';
import { placeLabels, type Box } from '../../src/shared/label-placement';
import { buildSiteReport } from '../../src/site-report/service';
import { FIXED_NOW, memoryIndex } from '../helpers';
import { destination, rng } from '../area/fixtures';
import { pdfText, pdfWords, type PdfWord } from '../reports/pdf-tools';
import { R_MILES, scatter, withTraits } from './fixtures';

const overlaps = (a: Box, b: Box) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
const FRAME: Box = { x: 0, y: 0, w: 400, h: 400 };
const SITE_MARK: Box = { x: 193, y: 193, w: 14, h: 14 };

describe('numbers on the radius map', () => {
  it('never overlap each other, the site mark or the frame, even for 40 dots within 3 points of the site; those without room are call-outs', () => {
    const rand = rng(3);
    const dots = Array.from({ length: 40 }, () => ({ dot: { x: 200 + (rand() - 0.5) * 6, y: 200 + (rand() - 0.5) * 6 }, w: 8 }));
    const { labels, callOuts } = placeLabels(dots, FRAME, [SITE_MARK]);
    expect([...labels.map((l) => l.n), ...callOuts].sort((a, b) => a - b)).toEqual(dots.map((_, i) => i + 1));
    for (const [i, a] of labels.entries()) {
      expect(overlaps(a.box, SITE_MARK)).toBe(false);
      expect(a.box.x >= 0 && a.box.y >= 0 && a.box.x + a.box.w <= 400 && a.box.y + a.box.h <= 400).toBe(true);
      for (const b of labels.slice(i + 1)) expect(overlaps(a.box, b.box)).toBe(false);
    }
    expect(labels.some((l) => l.leader)).toBe(true);
  });

  it('a dot with room keeps its number beside it, without a leader line', () => {
    const { labels } = placeLabels([{ dot: { x: 50, y: 50 }, w: 8 }], FRAME, [SITE_MARK]);
    expect(labels).toEqual([{ n: 1, box: expect.any(Object), leader: false }]);
  });
});

describe('the map\'s base layer', () => {
  it('draws the Texas-Arkansas state line through a site in Texarkana, inside the map square', () => {
    const b = borderLines({ lat: 33.4251, lng: -94.043 }, 150, 300, 400, 170);
    expect(b.state.length).toBeGreaterThan(0);
    for (const line of [...b.state, ...b.county]) for (const [x, y] of line) expect(Math.abs(x - 300) <= 170.01 && Math.abs(y - 400) <= 170.01).toBe(true);
  });

  it('draws county borders where the site is near one, and nothing in the open ocean', () => {
    // Harris and Fort Bend counties meet along the Brazos at Sugar Land's edge; a 5-mile map of it crosses a county border
    expect(borderLines({ lat: 29.6, lng: -95.64 }, 30, 300, 400, 170).county.length).toBeGreaterThan(0);
    expect(borderLines({ lat: 30, lng: -150 }, 150, 300, 400, 170)).toEqual({ county: [], state: [] });
  });
});

describe('a PDF of a crowded site', () => {
  it('prints every one of the nearest 40 numbers on the map page, and markdown code marks as plain text', async () => {
    const SITE = { lat: 29.7604, lng: -95.3698 };
    const traits = { snc: true, recentFormal: true, oldFormal: false, rcra: true, cwa: false, caa: false };
    const rows = Array.from({ length: 45 }, (_, i) => withTraits(`9906000001${String(i).padStart(2, '0')}`, destination(SITE.lat, SITE.lng, i * 8, 0.001 + i * 0.0002, R_MILES), traits));
    const index = memoryIndex([...rows, ...scatter(rng(2), SITE, 30, 1, 990_600_100_000).map((g) => g.row)]);
    const report = buildSiteReport(index, buildSpatialIndex(index), { site: { ...SITE, located_by: 'coordinates', approximate: false, zip: null, matched_registry_id: null, note: 'x' }, name: 'The `north` lot', address: null, distances: defaultDistances() });
    const text = pdfText(await renderSiteReport({ report, generated_at: FIXED_NOW, document_id: '0123456789abcdef' }));
    const map = text.slice(text.indexOf('RADIUS MAP'), text.indexOf('Good (90-100)'));
    const tokens = new Set(map.split(/\s+/));
    for (let n = 1; n <= 40; n++) expect(tokens.has(String(n)) || new RegExp(`\\b${n}: 0\\.`).test(text)).toBe(true);
    expect(text.replace(/\s+/g, ' ')).toContain('The north lot');
    expect(text).not.toContain('`');
  });
});

/** The word right after `w` on its line (within a space's width), if any. */
const nextOnLine = (words: PdfWord[], w: PdfWord) => words.find((v) => Math.abs(v.yMin - w.yMin) < 0.5 && v.xMin > w.xMax && v.xMin < w.xMax + 6);

/** A ring's label on the map page: `text` followed by "mi". */
const ringLabel = (words: PdfWord[], text: string) => words.find((w) => w.text === text && nextOnLine(words, w)?.text === 'mi')!;

/** The scale bar's labels on the map page: a "0" whose line goes on with "<n> mi" or "<n>/<d> mi" (the bar between them). */
function scaleBarWords(words: PdfWord[]): { miles: number; zero: PdfWord; end: [PdfWord, PdfWord] } {
  for (const zero of words.filter((w) => w.text === '0')) {
    const n = words.filter((v) => Math.abs(v.yMin - zero.yMin) < 0.5 && v.xMin > zero.xMax).sort((a, b) => a.xMin - b.xMin)[0];
    const mi = n && nextOnLine(words, n);
    if (!n || mi?.text !== 'mi' || !/^\d+(\/\d+)?$/.test(n.text)) continue;
    const [a, b = '1'] = n.text.split('/');
    return { miles: Number(a) / Number(b), zero, end: [n, mi] };
  }
  throw new Error('no scale bar labels on the map page');
}

describe("the PDF map's scale bar", () => {
  it('of a parcel 20 miles across is a round length at least 40 points long, true to the rings', async () => {
    // a square parcel about 20 miles on a side in open country, a few facilities inside and around it
    const SITE = { lat: 31.5, lng: -103.5 };
    const d = 0.145;
    const boundary = { type: 'Polygon' as const, coordinates: [[[SITE.lng - d * 1.17, SITE.lat - d], [SITE.lng + d * 1.17, SITE.lat - d], [SITE.lng + d * 1.17, SITE.lat + d], [SITE.lng - d * 1.17, SITE.lat + d], [SITE.lng - d * 1.17, SITE.lat - d]]] };
    const index = memoryIndex(scatter(rng(4), SITE, 12, 9, 990_700_000_000).map((g) => g.row));
    const report = buildSiteReport(index, buildSpatialIndex(index), { site: { ...SITE, located_by: 'boundary', approximate: false, zip: null, matched_registry_id: null, note: 'x' }, name: 'Ranch parcel', address: null, distances: defaultDistances(), boundary });
    const pdf = await renderSiteReport({ report, generated_at: FIXED_NOW, document_id: '0123456789abcdef' });
    const words = pdfWords(pdf, 2);
    // the rings' labels sit on the 45° line, r/√2 right of the centre: two of them give the points per mile
    const outer = Number(/found within ([\d.]+) mi/i.exec(pdfText(pdf))![1]);
    expect(outer).toBeGreaterThan(10);
    const perMile = ((ringLabel(words, String(outer)).xMin - ringLabel(words, '1/8').xMin) * Math.SQRT2) / (outer - 0.125);
    const bar = scaleBarWords(words);
    // each label is centred on its end of the bar
    const length = (bar.end[0].xMin + bar.end[1].xMax) / 2 - (bar.zero.xMin + bar.zero.xMax) / 2;
    expect([0.125, 0.25, 0.5, 1, 2, 5, 10, 20]).toContain(bar.miles);
    expect(length).toBeGreaterThanOrEqual(40);
    expect(Math.abs(length - bar.miles * perMile)).toBeLessThan(0.5);
  });
});
