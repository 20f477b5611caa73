import { rgb, type RGB } from 'pdf-lib';
import { COLORS, PAGE, type Flow } from '../reports/layout';
import { DEG } from '../area/geo';
import type { Finding } from './model';

const hex = (h: string): RGB => rgb(parseInt(h.slice(1, 3), 16) / 255, parseInt(h.slice(3, 5), 16) / 255, parseInt(h.slice(5, 7), 16) / 255);

/** The web page's score bands and colours (src/web/client/score-band.ts, styles.css), so map and page read alike. */
export const SCORE_BANDS = [
  { min: 90, label: 'Good', range: '90-100', color: hex('#1A7F37') },
  { min: 75, label: 'Fair', range: '75-89', color: hex('#6B8E00') },
  { min: 50, label: 'Poor', range: '50-74', color: hex('#B35C00') },
  { min: 0, label: 'Very poor', range: '0-49', color: hex('#C0262D') },
] as const;

export function scoreBand(score: number): (typeof SCORE_BANDS)[number] {
  return SCORE_BANDS.find((b) => score >= b.min) ?? SCORE_BANDS[SCORE_BANDS.length - 1]!;
}

/** The rings drawn: the ASTM distances, plus the outermost search distance when it is beyond a mile. */
export function ringsFor(maxMiles: number): { miles: number; label: string }[] {
  const rings = [
    { miles: 0.125, label: '1/8 mi' },
    { miles: 0.25, label: '1/4 mi' },
    { miles: 0.5, label: '1/2 mi' },
    { miles: 1, label: '1 mi' },
  ];
  if (maxMiles > 1) rings.push({ miles: maxMiles, label: `${maxMiles} mi` });
  return rings;
}

/** The nearest findings whose dots carry their row number; more numbers would hide the dots. */
export const NUMBERED_DOTS = 40;

/**
 * The radius map, drawn with vector operations only (no tiles, no network): the site at the
 * centre, rings at 1/8, 1/4, 1/2 and 1 mile, each finding a dot placed by its bearing and distance
 * (azimuthal equidistant: distance from the centre is true to scale in every direction), coloured
 * by score band, the nearest numbered as in the findings table; a north arrow and a scale bar.
 * Draws into a square of `side` points whose top left is at (PAGE.margin, f.y).
 */
export function drawRadiusMap(f: Flow, findings: readonly Finding[], maxMiles: number, side: number): void {
  const page = f.page;
  const x0 = PAGE.margin + (PAGE.width - 2 * PAGE.margin - side) / 2;
  const top = f.y;
  const cx = x0 + side / 2;
  const cy = top - side / 2;
  const outer = Math.max(1, maxMiles);
  const perMile = (side / 2 - 14) / outer;
  f.rect(x0, top - side, side, side, COLORS.panel, COLORS.rule);

  for (const ring of ringsFor(maxMiles)) {
    const r = ring.miles * perMile;
    page.circle(cx, cy, r, { stroke: ring.miles === 1 ? COLORS.muted : COLORS.faint, width: ring.miles === 1 ? 0.9 : 0.6, dash: ring.miles < 1 ? [3, 2] : undefined });
    // labels on the 45° line to the upper right, where they cross no axis
    const lx = cx + r * Math.SQRT1_2 + 2;
    const ly = cy + r * Math.SQRT1_2 + 2;
    f.text(ring.label, lx, ly, { size: 6.5, bold: true, color: COLORS.muted });
  }
  page.line(cx, top - 6, cx, top - side + 6, 0.3, COLORS.rule);
  page.line(x0 + 6, cy, x0 + side - 6, cy, 0.3, COLORS.rule);

  // worst scores drawn last, so they sit on top where dots overlap
  const placed = findings.map((g, i) => ({ g, n: i + 1 })).sort((a, b) => b.g.overall_score - a.g.overall_score);
  for (const { g, n } of placed) {
    const r = g.distance_miles * perMile;
    const x = cx + r * Math.sin(g.bearing_degrees * DEG);
    const y = cy + r * Math.cos(g.bearing_degrees * DEG);
    page.circle(x, y, 3.4, { fill: scoreBand(g.overall_score).color, stroke: COLORS.white, width: 0.6 });
    if (n <= NUMBERED_DOTS) f.text(String(n), x + 4, y + 2, { size: 5.5, bold: true, color: COLORS.ink });
  }

  // the site: a navy square outline over the dots, so a facility on site still shows inside it
  f.page.rect(cx - 5, cy - 5, 10, 10, { stroke: COLORS.navy, width: 1.6 });

  drawNorthArrow(f, x0 + side - 22, top - 16);
  drawScaleBar(f, x0 + 12, top - side + 14, perMile);
  f.y = top - side;
}

function drawNorthArrow(f: Flow, x: number, yTop: number): void {
  // an arrowhead pointing up, its tip at (x, yTop - 10) and a notch in its base
  const tip = yTop - 10;
  f.page.polygon([[x, tip], [x + 6, tip - 16], [x, tip - 12], [x - 6, tip - 16]], { fill: COLORS.navy, stroke: COLORS.navy, width: 0.5 });
  f.text('N', x, yTop - 6, { size: 8, bold: true, color: COLORS.navy }, 'center');
}

/** A bar a round number of miles long (1/4 mile, or 1/2 when the map is wide), with its label. */
function drawScaleBar(f: Flow, x: number, y: number, perMile: number): void {
  const miles = perMile * 0.25 >= 40 ? 0.25 : 0.5;
  const w = miles * perMile;
  f.rect(x, y, w / 2, 3, COLORS.ink);
  f.rect(x + w / 2, y, w / 2, 3, COLORS.white, COLORS.ink);
  f.text('0', x, y + 6, { size: 6.5, color: COLORS.muted }, 'center');
  f.text(`${miles === 0.25 ? '1/4' : '1/2'} mi`, x + w, y + 6, { size: 6.5, color: COLORS.muted }, 'center');
}

/** The legend under the map: the score bands with their counts, and the site's mark. */
export function drawMapLegend(f: Flow, findings: readonly Finding[]): void {
  let x = PAGE.margin;
  f.y -= 14;
  f.page.rect(x, f.y - 1, 7, 7, { stroke: COLORS.navy, width: 1.4 });
  f.text('The site', x + 11, f.y, { size: 7.5, color: COLORS.muted });
  x += 60;
  for (const b of SCORE_BANDS) {
    const n = findings.filter((g) => scoreBand(g.overall_score) === b).length;
    f.page.circle(x + 3.5, f.y + 2.5, 3.4, { fill: b.color });
    const label = `${b.label} (${b.range}): ${n}`;
    f.text(label, x + 11, f.y, { size: 7.5, color: COLORS.muted });
    x += 24 + f.width(label, { size: 7.5 });
  }
  f.y -= 4;
}
