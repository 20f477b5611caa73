import { COLORS, CONTENT_WIDTH, drawFictitiousBanner, drawRunningHead, FOOTER_BASELINE, Flow, PAGE } from './layout';
import type { PageContent } from './page-content';
import type { ReportView } from './model';
import { MIN_PEERS } from '../index/peers';
import { NOT_ENOUGH_DATA } from '../shared/completeness-notes';
import { printedTime } from './text';
import { drawScoreTrend } from './score-chart';
import { drawEvidence } from './evidence-section';
import { drawAbout, drawBreakdown, drawHistory, drawRecord, scoreColor } from './sections';
import { ordinal, peerStanding } from '../shared/peer-words';


export function formatCoordinates(lat: number, lng: number): string {
  const part = (v: number, pos: string, neg: string) => `${Math.abs(v).toFixed(5)}° ${v >= 0 ? pos : neg}`;
  return `${part(lat, 'N', 'S')}, ${part(lng, 'E', 'W')}`;
}

/**
 * Renders the facility dossier: page 1 carries identity, the score, its breakdown and the quarterly
 * history; the compliance record, method and provenance flow onto page 2. Pure: same view, same bytes.
 */
export async function renderReport(view: ReportView): Promise<Uint8Array> {
  const flow = await Flow.create((f) => (f.pages.length === 1 ? drawMasthead(f, view) : drawRunningHead(f, 'Facility compliance dossier', view.fac_name, CONTENT_WIDTH - 160, `  ·  ${view.registry_id}`)));
  if (view.fictitious) drawFictitiousBanner(flow, 'This facility, its address and every figure below are invented for demonstration. They are not EPA data.');
  drawIdentity(flow, view);
  drawEnforcement(flow, view);
  drawBreakdown(flow, view);
  drawHistory(flow, view);
  drawScoreTrend(flow, view);
  drawRecord(flow, view);
  drawEvidence(flow, view);
  drawAbout(flow, view);
  setMetadata(flow, view);
  return flow.finish((f, page, i, n) => drawFooter(f, page, view, i, n));
}

function drawMasthead(f: Flow, v: ReportView): void {
  const top = PAGE.height;
  f.rect(0, top - 78, PAGE.width, 78, COLORS.navy);
  f.text('FACILITY COMPLIANCE DOSSIER', PAGE.margin, top - 36, { size: 15, bold: true, color: COLORS.white });
  f.text(`EPA Registry ID ${v.registry_id}`, PAGE.margin, top - 56, { size: 10, color: COLORS.track });
  const right = PAGE.width - PAGE.margin;
  f.text('facility-score', right, top - 36, { size: 10, bold: true, color: COLORS.white }, 'right');
  f.text(`Data as of ${v.as_of}`, right, top - 56, { size: 10, color: COLORS.track }, 'right');
  f.y = top - 78 - 18;
}


/** "Tied with N% of peers at the top score, of M facilities, NAICS code", or why there is no comparison. */
export function peersLine(v: ReportView): string {
  const p = v.peers;
  if (p === null) return v.fac_naics ? 'No peer group' : 'No NAICS code, no peer group';
  const group = `${p.peer_count.toLocaleString('en-US')} ${p.peer_count === 1 ? 'facility' : 'facilities'}, NAICS ${p.naics}`;
  if (p.percentile === null) return `No percentile: only ${group} (${MIN_PEERS} needed)`;
  // shares read right where ties make a percentile read wrong (a 100 at the 59th, a 99 at the 19th)
  if (p.share_scoring_better !== null && p.share_tied !== null) return `${peerStanding(p.share_scoring_better, p.share_tied)}, of ${group}`;
  return `Ranks at the ${ordinal(p.percentile)} percentile of ${group} (ties count half)`;
}

function drawIdentity(f: Flow, v: ReportView): void {
  const cardW = 156;
  const leftW = CONTENT_WIDTH - cardW - 24;
  const top = f.y;
  // Long names step down in size before anything is cut; only the smallest size may end in an ellipsis.
  const size = [19, 16].find((s) => f.lines(v.fac_name, { size: s, bold: true }, leftW).length <= 3) ?? 13;
  let y = top;
  for (const line of f.lines(v.fac_name, { size, bold: true }, leftW, 4)) {
    y -= size;
    f.text(line, PAGE.margin, y, { size, bold: true });
    y -= size * 0.25;
  }
  y -= 4;
  // Address lines and facts wrap (two and three lines) rather than end in an ellipsis: page 1 cut
  // "Ranks at the 0th percentile of 66 facilities, NAICS…" mid-sentence.
  for (const line of v.address_lines) {
    const size = [11, 9.5].find((s) => f.lines(line, { size: s }, leftW).length === 1) ?? 9.5;
    for (const part of f.lines(line, { size }, leftW, 2)) {
      y -= size;
      f.text(part, PAGE.margin, y, { size, color: COLORS.muted });
      y -= 3;
    }
  }
  y -= 12;
  const facts: [string, string][] = [
    ['Registry ID', v.registry_id],
    ['NAICS code', v.fac_naics || 'Not reported'],
    ['Coordinates', v.lat === null || v.lng === null ? 'not reported (EPA lists no usable coordinates)' : formatCoordinates(v.lat, v.lng)],
  ];
  for (const [label, value] of facts) {
    y -= 10;
    f.text(label.toUpperCase(), PAGE.margin, y, { size: 7.5, bold: true, color: COLORS.faint });
    f.text(f.lines(value, { size: 10 }, leftW - 78, 1)[0] ?? '', PAGE.margin + 78, y, { size: 10 });
    y -= 6;
  }
  const cardH = 132;
  drawScoreCard(f, v, PAGE.width - PAGE.margin - cardW, top - cardH, cardW, cardH);
  // The peers sentence runs under both columns: beside the card it was cut mid-sentence.
  y = Math.min(y, top - cardH) - 10;
  f.text('INDUSTRY PEERS', PAGE.margin, y, { size: 7.5, bold: true, color: COLORS.faint });
  f.lines(peersLine(v), { size: 10 }, CONTENT_WIDTH - 78, 2).forEach((part, k) => {
    if (k > 0) y -= 12;
    f.text(part, PAGE.margin + 78, y, { size: 10 });
  });
  f.y = y - 14;
}

function drawScoreCard(f: Flow, v: ReportView, x: number, y: number, w: number, h: number): void {
  const color = scoreColor(v.overall_score / 100);
  f.rect(x, y, w, h, COLORS.panel, COLORS.rule);
  f.rect(x, y + h - 4, w, 4, color);
  const cx = x + w / 2;
  f.text('COMPLIANCE SCORE', cx, y + h - 22, { size: 8, bold: true, color: COLORS.muted }, 'center');
  f.text(String(v.overall_score), cx, y + h - 76, { size: 50, bold: true, color }, 'center');
  f.text('out of 100', cx, y + h - 92, { size: 9, color: COLORS.muted }, 'center');
  // not enough data to judge: the integer stays (the contract needs one), the card says it cannot rank
  if (v.data_completeness?.sufficient === false) f.text(NOT_ENOUGH_DATA, cx, y + h - 106, { size: 9, bold: true, color: COLORS.poor }, 'center');
  const barX = x + 16;
  const barW = w - 32;
  f.rect(barX, y + 22, barW, 5, COLORS.track);
  f.rect(barX, y + 22, Math.max(1, (barW * v.overall_score) / 100), 5, color);
  f.text('0', barX, y + 11, { size: 6.5, color: COLORS.faint });
  f.text('higher is better', cx, y + 11, { size: 6.5, color: COLORS.faint }, 'center');
  f.text('100', barX + barW, y + 11, { size: 6.5, color: COLORS.faint }, 'right');
}

function drawEnforcement(f: Flow, v: ReportView): void {
  // the flag in the words of what it means (the data cannot tell an open action from a closed one): the
  // model's reason starts with "Yes: <rule>: " / "No: ", which the title says
  const rule = /^yes: (significant violation being addressed|enforcement action in the last 12 months):\s*/i.exec(v.enforcement_reason);
  const [fill, line, title] = v.active_enforcement
    ? [COLORS.alertFill, COLORS.poor, rule ? rule[1]!.toUpperCase() : 'ENFORCEMENT ACTION: YES']
    : [COLORS.okFill, COLORS.good, 'NO ENFORCEMENT ACTION IN THE LAST 12 MONTHS'];
  const titleW = f.width(title, { size: 9.5, bold: true });
  const reason = rule ? v.enforcement_reason.slice(rule[0].length) : v.enforcement_reason.replace(/^(yes|no):\s*/i, '');
  const detail = f.lines(reason.charAt(0).toUpperCase() + reason.slice(1), { size: 9 }, CONTENT_WIDTH - titleW - 40, 2);
  const h = 14 + detail.length * 12;
  f.rect(PAGE.margin, f.y - h, CONTENT_WIDTH, h, fill);
  f.rect(PAGE.margin, f.y - h, 4, h, line);
  f.text(title, PAGE.margin + 14, f.y - 16.5, { size: 9.5, bold: true, color: line });
  detail.forEach((l, k) => f.text(l, PAGE.margin + 24 + titleW, f.y - 16.5 - k * 12, { size: 9, color: COLORS.ink }));
  f.y -= h + 4;
}

function drawFooter(f: Flow, page: PageContent, v: ReportView, index: number, count: number): void {
  const y = FOOTER_BASELINE;
  page.line(PAGE.margin, y + 14, PAGE.width - PAGE.margin, y + 14, 0.5, COLORS.rule);
  const style = { size: 7.5, color: COLORS.muted };
  f.text(`Generated ${printedTime(v.generated_at)}  ·  Document ${v.document_id}  ·  Score method ${v.score_version}`, PAGE.margin, y, style, 'left', page);
  f.text(`Page ${index + 1} of ${count}`, PAGE.width - PAGE.margin, y, { ...style, bold: true }, 'right', page);
  const source = v.fictitious ? 'Fictitious sample data, not EPA data' : 'Source: U.S. EPA ECHO';
  f.text(`${source}  ·  data as of ${v.as_of}  ·  Registry ID ${v.registry_id}`, PAGE.margin, y - 11, style, 'left', page);
}

function setMetadata(f: Flow, v: ReportView): void {
  const when = new Date(v.generated_at);
  f.doc.setTitle(`Facility compliance dossier: ${v.fac_name} (${v.registry_id})`);
  f.doc.setSubject(`Compliance score ${v.overall_score}/100, data as of ${v.as_of}${v.fictitious ? ' (fictitious sample data)' : ''}`);
  f.doc.setAuthor('facility-score');
  f.doc.setCreator('facility-score');
  f.doc.setProducer('facility-score (pdf-lib)');
  f.doc.setKeywords(['EPA Registry ID', v.registry_id, 'compliance', 'ECHO']);
  f.doc.setCreationDate(when);
  f.doc.setModificationDate(when);
}
