import { COLORS, CONTENT_WIDTH, PAGE, type Flow } from '../reports/layout';
import { DISTANCE_BANDS } from './compass';
import type { Finding, SiteReport, UnmappedFacility } from './model';
import { drawTable, type Column } from './pdf-table';
import { scoreLook } from './radius-map';
import { NOT_ENOUGH_DATA } from '../shared/completeness-notes';

const BODY = { size: 9, color: COLORS.ink };
const NOTE = { size: 8, color: COLORS.muted };

/** A category's search distance in words: 0 is a parcel's on_site, inside its boundary. */
const distanceWords = (miles: number): string => (miles === 0 ? 'inside' : `${miles} mi`);

const COVERAGE_WORDS = { searched: 'searched', broadened: 'broadened*', not_searched: 'NOT SEARCHED' } as const;

/** Category × distance band counts, one row per category; a legend of the coverage words under it. */
export function drawSummary(f: Flow, r: SiteReport): void {
  f.heading('Summary: facilities found by category and distance');
  const columns: Column<SiteReport['summary'][number]>[] = [
    { label: 'Category', width: 150, cell: (s) => s.label },
    { label: 'Search distance', width: 46, align: 'right', cell: (s) => distanceWords(s.search_distance_miles) },
    { label: 'Coverage', width: 52, cell: (s) => COVERAGE_WORDS[s.coverage] },
    ...DISTANCE_BANDS.map((b): Column<SiteReport['summary'][number]> => ({ label: b.label, width: 34, align: 'right', cell: (s) => (s.coverage === 'not_searched' ? '-' : String(s.counts[b.key])) })),
    { label: 'Total', width: 32, align: 'right', cell: (s) => (s.coverage === 'not_searched' ? '-' : String(s.total)) },
  ];
  drawTable(f, columns, r.summary, { size: 7.5, maxLines: 2 });
  f.y -= 6;
  const broad = r.summary.filter((s) => s.coverage === 'broadened');
  const none = r.summary.filter((s) => s.coverage === 'not_searched');
  for (const s of broad) f.paragraph(`* ${s.label}, broadened: ${s.note.replace(/^Broadened: /, '').replace(/ ECHO columns:.*$/, '')}`, NOTE);
  if (none.length) f.paragraph(`Not searched: ${none.map((s) => s.label.toLowerCase()).join(', ')} (the index does not hold the ECHO field). A dash is not a zero.`, NOTE);
  f.paragraph('Counts are of facilities listed under each category within its search distance; a facility can be counted under several categories. Bands by exact great-circle distance (from the boundary of a parcel): on site inside the parcel or under 0.02 mi of a point site, upper bounds inclusive.', NOTE);
}

const CATEGORY_SHORT: Record<string, string> = {
  on_site: 'on site', adjoining: 'adjoining', snc: 'SNC', enforcement: 'enforcement', rcra_tsd: 'RCRA TSD', rcra_generator: 'RCRA generator', tri: 'TRI', npdes: 'NPDES', caa_major: 'CAA major',
};

const yesNo = (b: boolean) => (b ? 'Yes' : 'No');

const PROGRAM_ID_LABELS = [['air', 'AIR'], ['npdes', 'NPDES'], ['rcra', 'RCRA'], ['sdwa', 'SDWA'], ['tri', 'TRI']] as const;

/** What pulls a finding's file: its program IDs, then generator size, latest violation quarter and action date (only those it has). */
function fileLines(g: Finding): string[] {
  const ids = PROGRAM_ID_LABELS.filter(([k]) => g.program_ids[k].length > 0).map(([k, label]) => `${label} ${g.program_ids[k].join(' ')}`);
  const facts = [
    g.rcra_generator_size,
    g.latest_violation_quarter && `last violation ${g.latest_violation_quarter}`,
    g.latest_action_date && `last action ${g.latest_action_date}`,
  ].filter(Boolean);
  return [...ids, ...(facts.length ? [facts.join('; ')] : [])];
}

/** Every finding, nearest first, numbered as on the map. */
export function drawFindings(f: Flow, r: SiteReport): void {
  f.heading(`Findings: ${r.findings.length} ${r.findings.length === 1 ? 'facility' : 'facilities'}, nearest first`);
  if (r.findings.length === 0) {
    f.paragraph('No facility in the index falls under any searched category within its search distance.', BODY);
    return;
  }
  const numbered = r.findings.map((g, i) => ({ ...g, n: i + 1 }));
  const columns: Column<Finding & { n: number }>[] = [
    { label: '#', width: 18, align: 'right', cell: (g) => String(g.n) },
    { label: 'Facility, address, registry ID, file', width: 156, boldFirst: true, whole: true, cell: (g) => [g.fac_name || 'Unnamed facility', `${g.fac_street}, ${g.fac_city}, ${g.fac_state} ${g.fac_zip}`, g.registry_id, ...fileLines(g)] },
    { label: 'Distance (mi)', width: 38, align: 'right', cell: (g) => g.distance_miles.toFixed(3) },
    { label: 'Dir.', width: 30, align: 'center', cell: (g) => g.direction },
    { label: 'Categories', width: 84, cell: (g) => g.categories.map((c) => CATEGORY_SHORT[c] ?? c).join(', ') },
    // wide enough for "Not enough data" on two lines
    { label: 'Score', width: 44, align: 'right', cell: (g) => [String(g.overall_score), scoreLook(g).label], color: (g) => scoreLook(g).color },
    { label: 'SNC now', width: 28, align: 'center', cell: (g) => yesNo(g.significant_violation) },
    { label: 'Enf. 12 mo', width: 28, align: 'center', cell: (g) => yesNo(g.active_enforcement) },
    { label: 'Programs', width: 50, cell: (g) => g.programs.join(', ') || '-' },
  ];
  drawTable(f, columns, numbered, { size: 7.5, maxLines: 4 });
}

/** The facilities in the site's ZIP that have no coordinates (their distance is unknown). */
export function drawUnmapped(f: Flow, r: SiteReport): void {
  f.heading('Facilities not placed: no coordinates, or an approximate location');
  f.paragraph(r.unmapped.note, BODY);
  if (r.unmapped.facilities.length === 0) return;
  f.y -= 4;
  const columns: Column<UnmappedFacility>[] = [
    { label: 'Facility, address, registry ID', width: 196, boldFirst: true, whole: true, cell: (g) => [g.fac_name || 'Unnamed facility', `${g.fac_street}, ${g.fac_city}, ${g.fac_state} ${g.fac_zip}`, `${g.registry_id} · ${g.reason}`] },
    { label: 'Record types', width: 110, cell: (g) => g.categories.map((c) => CATEGORY_SHORT[c] ?? c).join(', ') || '-' },
    { label: 'Score', width: 44, align: 'right', cell: (g) => (g.data_sufficient ? String(g.overall_score) : [String(g.overall_score), NOT_ENOUGH_DATA]), color: (g) => scoreLook(g).color },
    { label: 'SNC now', width: 34, align: 'center', cell: (g) => yesNo(g.significant_violation) },
    { label: 'Enf. 12 mo', width: 34, align: 'center', cell: (g) => yesNo(g.active_enforcement) },
    { label: 'Programs', width: 60, cell: (g) => g.programs.join(', ') || '-' },
  ];
  drawTable(f, columns, r.unmapped.facilities, { size: 7.5 });
}

/** What was searched (with its as-of date), how each category reads ECHO, and every source not searched. */
export function drawSources(f: Flow, r: SiteReport): void {
  f.heading('Sources searched');
  drawTable(f, [
    { label: 'Source', width: 200, boldFirst: true, cell: (s) => s.name },
    { label: 'Data as of', width: 70, cell: (s) => s.as_of ?? 'not dated' },
    { label: 'Note', width: 234, cell: (s) => s.note },
  ], r.sources.searched, { size: 7.5 });
  f.y -= 8;
  f.heading('How each category reads the ECHO record');
  drawTable(f, [
    { label: 'Category', width: 140, boldFirst: true, cell: (s) => [s.label, distanceWords(s.search_distance_miles)] },
    { label: 'Basis and ECHO columns', width: 364, cell: (s) => s.note },
  ], r.summary, { size: 7.5, maxLines: 6 });
  f.y -= 8;
  f.heading('Sources NOT searched');
  f.paragraph('These record sources belong in an ASTM E1527-21 records review but are not in this service\'s data. Nothing in this report says anything about them.', NOTE);
  f.y -= 2;
  drawTable(f, [
    { label: 'Record source', width: 250, boldFirst: true, cell: (s) => s.name },
    { label: 'ASTM minimum search distance', width: 90, cell: (s) => s.astm_search_distance },
    { label: 'Why not searched', width: 164, cell: (s) => s.why },
  ], r.sources.not_searched, { size: 7.5 });
}

/** The plain statement of what this document is and is not; `parcel`: distances were measured from a boundary given. */
export function drawDisclaimer(f: Flow, parcel: boolean): void {
  const style = { size: 8.5, color: COLORS.ink };
  const text = [
    `This is a screening of public EPA ECHO compliance records around one ${parcel ? 'parcel' : 'point'}. It is not a Phase I Environmental Site Assessment under ASTM E1527-21 and does not satisfy All Appropriate Inquiries: there was no site reconnaissance, no interviews, no review of historical sources, and most standard environmental record sources were not searched (listed above).`,
    `Locations are ECHO's facility coordinates, which can be approximate or wrong; a facility whose coordinates are missing or misplaced can be absent from the map and the findings. ${parcel ? 'Distances are great-circle distances from the parcel boundary as given (0 inside it), which is only as exact as its vertices.' : 'Distances are great-circle distances from the site point, not from the property boundary.'}`,
    'Scores and flags are derived from the records as of the date shown, by the scoring method named in the data line; they are not legal findings. Verify anything that matters against the source records before relying on it.',
  ];
  // kept on one page: a disclaimer split across pages reads as two
  const lines = text.reduce((n, p) => n + f.lines(p, style, CONTENT_WIDTH).length, 0);
  f.ensure(44 + lines * style.size * 1.4 + text.length * 3);
  f.heading('What this report is, and is not');
  for (const p of text) {
    f.paragraph(p, style);
    f.y -= 3;
  }
}

/** A boxed warning (an approximate site). */
export function drawWarning(f: Flow, title: string, body: string): void {
  const lines = f.lines(body, { size: 8.5 }, CONTENT_WIDTH - 24);
  const h = 24 + lines.length * 11;
  f.ensure(h + 8);
  f.rect(PAGE.margin, f.y - h, CONTENT_WIDTH, h, COLORS.warnFill, COLORS.warnLine);
  f.text(title, PAGE.margin + 12, f.y - 14, { size: 9, bold: true, color: COLORS.poor });
  lines.forEach((l, i) => f.text(l, PAGE.margin + 12, f.y - 26 - i * 11, { size: 8.5 }));
  f.y -= h + 10;
}
