import { formatCoordinates } from '../reports/document';
import { COLORS, CONTENT_WIDTH, drawFictitiousBanner, drawRunningHead, FOOTER_BASELINE, Flow, PAGE } from '../reports/layout';
import type { PageContent } from '../reports/page-content';
import { printedTime } from '../reports/text';
import type { SiteReport } from './model';
import { drawDisclaimer, drawFindings, drawSources, drawSummary, drawUnmapped, drawWarning } from './pdf-sections';
import { drawMapLegend, drawRadiusMap, NUMBERED_DOTS, type MapParcel } from './radius-map';
import { polygonsOf } from './request';
import { haversineMiles } from '../area/geo';

/** Largest distance from the site's centre to a vertex of its parcel, miles. */
function parcelRadius(p: MapParcel): number {
  let r = 0;
  for (const rings of p.polygons) for (const ring of rings) for (const [lng, lat] of ring) r = Math.max(r, haversineMiles(p.site.lat, p.site.lng, lat!, lng!));
  return r;
}

/** What a site report PDF prints: the report, and the render's own stamp. */
/**
 * What a site report PDF prints: the report, when it was rendered, and its document ID (the start of
 * its cache key). Nothing of the request that rendered it: a cached copy is served to every caller
 * who asks for the same site, name and address within 24 h, and a request ID is the caller's text.
 */
export type SiteReportView = { report: SiteReport; generated_at: number; document_id: string };

const LOCATED_BY = { coordinates: 'Coordinates given', address: 'Street address, matched offline', zip_centroid: 'ZIP code centre (APPROXIMATE)', boundary: 'Parcel boundary (directions from its centre)' } as const;

/** The largest distance actually searched (a category the index cannot search reaches nowhere). */
function searchedMiles(r: SiteReport): number {
  return Math.max(...r.summary.filter((s) => s.coverage !== 'not_searched').map((s) => s.search_distance_miles));
}

/** The property's name for headings: its name, else its address, else its coordinates. */
export function siteTitle(r: SiteReport): string {
  return r.site.name ?? r.site.address ?? formatCoordinates(r.site.lat, r.site.lng);
}

/**
 * Renders the site report: a cover (property, how it was located, data as of, the summary table),
 * the radius map, the findings table, the unmapped list, the sources searched and not searched, and
 * the disclaimer. Pure: the same view gives the same bytes.
 */
export async function renderSiteReport(v: SiteReportView): Promise<Uint8Array> {
  const r = v.report;
  const flow = await Flow.create((f) => (f.pages.length === 1 ? drawMasthead(f, r) : drawRunningHead(f, 'Site report', siteTitle(r), CONTENT_WIDTH - 120)));
  if (r.dataset.fictitious) drawFictitiousBanner(flow, 'Every facility, address and figure in this report is invented for demonstration. They are not EPA data.');
  drawCover(flow, r, v);
  drawSummary(flow, r);
  flow.newPage();
  const parcel: MapParcel | undefined = r.site.boundary ? { polygons: polygonsOf(r.site.boundary), site: r.site } : undefined;
  // a parcel's dots are at their distance from its centre, up to the largest distance from its boundary plus its size (up to the next hundredth: a ring's label)
  const maxMiles = parcel ? Math.ceil((searchedMiles(r) + parcelRadius(parcel)) * 100) / 100 : searchedMiles(r);
  flow.heading(`Radius map: ${r.findings.length} ${r.findings.length === 1 ? 'facility' : 'facilities'} found within ${maxMiles} mi`);
  flow.y -= 6;
  const crowded = drawRadiusMap(flow, r.findings, maxMiles, Math.min(CONTENT_WIDTH, flow.y - 150), r.site, parcel);
  drawMapLegend(flow, r.findings, parcel ? "The parcel's centre" : 'The site');
  if (crowded.length) {
    const list = crowded.map((g) => `${r.findings.indexOf(g) + 1}: ${g.distance_miles.toFixed(3)} mi ${g.direction}`).join('; ');
    flow.paragraph(`Too close together to number on the map: ${list}.`, { size: 8, color: COLORS.ink });
  }
  const numbered = r.findings.length > NUMBERED_DOTS ? `the nearest ${NUMBERED_DOTS} are numbered` : 'numbered';
  const from = parcel ? 'the centre of the parcel (outlined; rings are distances from that centre, the findings\' distances are from the boundary)' : 'the site';
  flow.paragraph(`Dots are placed by true bearing and great-circle distance from ${from} (north up, distances to scale in every direction) over county (dashed) and state borders; ${numbered} as in the findings table. Facilities without coordinates cannot be drawn.`, { size: 8, color: COLORS.muted });
  flow.newPage();
  drawFindings(flow, r);
  flow.y -= 8;
  drawUnmapped(flow, r);
  flow.y -= 8;
  drawSources(flow, r);
  flow.y -= 8;
  drawDisclaimer(flow, parcel !== undefined);
  setMetadata(flow, v);
  return flow.finish((f, page, i, n) => drawFooter(f, page, v, i, n));
}

function drawMasthead(f: Flow, r: SiteReport): void {
  const top = PAGE.height;
  f.rect(0, top - 78, PAGE.width, 78, COLORS.navy);
  f.text('ENVIRONMENTAL RECORDS SCREENING', PAGE.margin, top - 36, { size: 15, bold: true, color: COLORS.white });
  f.text('Site report: EPA ECHO facilities around a property', PAGE.margin, top - 56, { size: 10, color: COLORS.track });
  const right = PAGE.width - PAGE.margin;
  f.text('facility-score', right, top - 36, { size: 10, bold: true, color: COLORS.white }, 'right');
  f.text(`Data as of ${r.dataset.as_of}`, right, top - 56, { size: 10, color: COLORS.track }, 'right');
  f.y = top - 78 - 18;
}

function drawCover(f: Flow, r: SiteReport, v: SiteReportView): void {
  const s = r.site;
  for (const line of f.lines(siteTitle(r), { size: 18, bold: true }, CONTENT_WIDTH, 2)) {
    f.y -= 18;
    f.text(line, PAGE.margin, f.y, { size: 18, bold: true });
    f.y -= 5;
  }
  if (s.name && s.address) {
    f.y -= 11;
    f.text(f.lines(s.address, { size: 11 }, CONTENT_WIDTH, 1)[0] ?? '', PAGE.margin, f.y, { size: 11, color: COLORS.muted });
  }
  f.y -= 10;
  if (s.approximate) drawWarning(f, 'APPROXIMATE LOCATION', s.note);
  // the approximate site has its box above and fictitious data its banner: the other warnings in one box
  const warnings = r.warnings.filter((w) => w.code !== 'APPROXIMATE_SITE' && w.code !== 'FICTITIOUS_DATA');
  if (warnings.length > 0) drawWarning(f, 'WARNINGS', warnings.map((w) => w.message).join(' '));
  const facts: [string, string][] = [
    // said once: a site titled by its coordinates gets the decimal form here, and "how" only when it adds to "located by"
    ['Coordinates', s.name || s.address ? `${formatCoordinates(s.lat, s.lng)}  (${s.lat.toFixed(5)}, ${s.lng.toFixed(5)})` : `${s.lat.toFixed(5)}, ${s.lng.toFixed(5)}`],
    ['Located by', LOCATED_BY[s.located_by]],
    // a ZIP centre's note is in the warning box above
    ...(s.approximate || s.located_by === 'coordinates' ? [] : [['How', s.note] as [string, string]]),
    ['ZIP code', s.zip === null ? 'Not given' : s.note.includes('No ZIP was given') ? `${s.zip} (the ZIP whose centre is nearest; none was given)` : s.zip],
    // the sample's name already says FICTITIOUS: the mark is added only to a name that does not
    ['Data', `${r.dataset.name}, as of ${r.dataset.as_of}${r.dataset.fictitious && !/fictitious/i.test(r.dataset.name) ? ' (FICTITIOUS sample)' : ''}; scoring method ${r.dataset.score_method}`],
    ['Generated', `${printedTime(v.generated_at)}, document ${v.document_id}`],
  ];
  for (const [label, value] of facts) {
    const lines = f.lines(value, { size: 9.5 }, CONTENT_WIDTH - 90, 3);
    f.y -= 13;
    f.text(label.toUpperCase(), PAGE.margin, f.y, { size: 7.5, bold: true, color: COLORS.faint });
    lines.forEach((l, i) => f.text(l, PAGE.margin + 90, f.y - i * 12, { size: 9.5 }));
    f.y -= (lines.length - 1) * 12 + 2;
  }
  f.y -= 6;
  const near = r.findings.filter((g) => g.distance_miles <= 0.125).length;
  const snc = r.findings.filter((g) => g.categories.includes('snc')).length;
  f.paragraph(
    `${r.findings.length} ${r.findings.length === 1 ? 'facility' : 'facilities'} listed; ${near} within 1/8 mile; ${snc} in significant non-compliance within ${r.search_distances.snc} mi. ` +
      `${r.unmapped.facilities.length} not placed (no coordinates, or an approximate location; see the findings pages)${r.unmapped.searched ? '' : '; facilities without coordinates were not looked for'}. This is a records screening, not a Phase I ESA (last page).`,
    { size: 9.5, bold: true, color: COLORS.navy },
  );
  f.y -= 4;
}

function drawFooter(f: Flow, page: PageContent, v: SiteReportView, index: number, count: number): void {
  const y = FOOTER_BASELINE;
  page.line(PAGE.margin, y + 14, PAGE.width - PAGE.margin, y + 14, 0.5, COLORS.rule);
  const style = { size: 7.5, color: COLORS.muted };
  f.text(`Generated ${printedTime(v.generated_at)}  ·  Document ${v.document_id}  ·  A records screening, not a Phase I ESA`, PAGE.margin, y, style, 'left', page);
  f.text(`Page ${index + 1} of ${count}`, PAGE.width - PAGE.margin, y, { ...style, bold: true }, 'right', page);
  const source = v.report.dataset.fictitious ? 'Fictitious sample data, not EPA data' : 'Source: U.S. EPA ECHO';
  f.text(`${source}  ·  data as of ${v.report.dataset.as_of}  ·  site ${v.report.site.lat.toFixed(5)}, ${v.report.site.lng.toFixed(5)}`, PAGE.margin, y - 11, style, 'left', page);
}

function setMetadata(f: Flow, v: SiteReportView): void {
  const when = new Date(v.generated_at);
  const r = v.report;
  f.doc.setTitle(`Site report: ${siteTitle(r)}`);
  f.doc.setSubject(`EPA ECHO records screening within ${searchedMiles(r)} mi, data as of ${r.dataset.as_of}${r.dataset.fictitious ? ' (fictitious sample data)' : ''}`);
  f.doc.setAuthor('facility-score');
  f.doc.setCreator('facility-score');
  f.doc.setProducer('facility-score (pdf-lib)');
  f.doc.setKeywords(['site report', 'ECHO', 'records screening']);
  f.doc.setCreationDate(when);
  f.doc.setModificationDate(when);
}
