import { haversineMiles } from '../area/geo';
import { bearingDegrees } from './compass';
import { rgb, type RGB } from 'pdf-lib';
import { COLORS, PAGE, type Flow } from '../reports/layout';
import { DEG } from '../area/geo';
import type { Finding } from './model';
import { borderLines } from './base-layer';
import { placeLabels, type Box } from '../shared/label-placement';
import { scaleBar } from '../shared/scale-bar';
import { NOT_ENOUGH_DATA } from '../shared/completeness-notes';

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

/** In place of a band when the data is not enough to judge the facility: grey, so no colour ranks it. */
export const NOT_ENOUGH_DATA_LOOK = { label: NOT_ENOUGH_DATA, color: COLORS.muted } as const;

/** A facility's band, or "Not enough data" (data_sufficient false): the word and colour a table cell or dot shows. */
export function scoreLook(g: { overall_score: number; data_sufficient: boolean }): { label: string; color: RGB } {
  return g.data_sufficient ? scoreBand(g.overall_score) : NOT_ENOUGH_DATA_LOOK;
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

/** A parcel on the map: its rings and the site's centre. */
export type MapParcel = { polygons: number[][][][]; site: { lat: number; lng: number } };

/**
 * The radius map, drawn with vector operations only (no tiles, no network): county and state
 * borders (the bundled us-atlas outlines) under the site at the centre, rings at 1/8, 1/4, 1/2 and
 * 1 mile, each finding a dot placed by its bearing and distance (azimuthal equidistant: distance
 * from the centre is true to scale in every direction), coloured by score band; a north arrow and a
 * scale bar. The nearest findings are numbered as in the findings table, each number placed where
 * it overlaps no other number, the site's mark or the frame (on a leader line when it had to move
 * away from its dot); a number that finds no such place is left to the call-out list, which the
 * function returns. Draws into a square of `side` points whose top left is at (PAGE.margin, f.y).
 */
export function drawRadiusMap(f: Flow, findings: readonly Finding[], maxMiles: number, side: number, site?: { lat: number; lng: number }, parcel?: MapParcel): Finding[] {
  const page = f.page;
  const x0 = PAGE.margin + (PAGE.width - 2 * PAGE.margin - side) / 2;
  const top = f.y;
  const cx = x0 + side / 2;
  const cy = top - side / 2;
  const outer = Math.max(1, maxMiles);
  const perMile = (side / 2 - 14) / outer;
  f.rect(x0, top - side, side, side, COLORS.panel, COLORS.rule);

  if (site) {
    const b = borderLines(site, perMile, cx, cy, side / 2 - 1);
    for (const l of b.county) page.polyline(l, { stroke: COLORS.faint, width: 0.5, dash: [1.5, 1.5] });
    for (const l of b.state) page.polyline(l, { stroke: COLORS.muted, width: 0.8 });
  }

  const ringLabels: Box[] = [];
  for (const ring of ringsFor(maxMiles)) {
    const r = ring.miles * perMile;
    page.circle(cx, cy, r, { stroke: ring.miles === 1 ? COLORS.muted : COLORS.faint, width: ring.miles === 1 ? 0.9 : 0.6, dash: ring.miles < 1 ? [3, 2] : undefined });
    // labels on the 45° line to the upper right, where they cross no axis
    const lx = cx + r * Math.SQRT1_2 + 2;
    const ly = cy + r * Math.SQRT1_2 + 2;
    f.text(ring.label, lx, ly, { size: 6.5, bold: true, color: COLORS.muted });
    ringLabels.push({ x: lx, y: ly - 1, w: f.width(ring.label, { size: 6.5, bold: true }), h: 7 });
  }
  page.line(cx, top - 6, cx, top - side + 6, 0.3, COLORS.rule);
  page.line(x0 + 6, cy, x0 + side - 6, cy, 0.3, COLORS.rule);

  // a parcel: its outline, and every dot at its true place from the site's centre (a finding's distance is from the boundary)
  const place = (lat: number, lng: number) => {
    const r = haversineMiles(parcel!.site.lat, parcel!.site.lng, lat, lng) * perMile, b = bearingDegrees(parcel!.site.lat, parcel!.site.lng, lat, lng) * DEG;
    return { x: cx + r * Math.sin(b), y: cy + r * Math.cos(b) };
  };
  if (parcel) for (const rings of parcel.polygons) for (const ring of rings) page.polygon(ring.map(([lng, lat]) => { const p = place(lat!, lng!); return [p.x, p.y] as [number, number]; }), { stroke: COLORS.navy, width: 1.2 });
  const at = findings.map((g) => {
    if (parcel) return place(g.location.lat, g.location.lng);
    const r = g.distance_miles * perMile;
    return { x: cx + r * Math.sin(g.bearing_degrees * DEG), y: cy + r * Math.cos(g.bearing_degrees * DEG) };
  });
  // worst scores drawn last, so they sit on top where dots overlap
  const order = findings.map((_, i) => i).sort((a, b) => findings[b]!.overall_score - findings[a]!.overall_score);
  for (const i of order) page.circle(at[i]!.x, at[i]!.y, 3.4, { fill: scoreLook(findings[i]!).color, stroke: COLORS.white, width: 0.6 });

  // the site: a navy square outline over the dots, so a facility on site still shows inside it; labels keep out of it, the north arrow and the scale bar
  f.page.rect(cx - 5, cy - 5, 10, 10, { stroke: COLORS.navy, width: 1.6 });
  const north = { x: x0 + side - 22, y: top - 16 };
  const bar = { x: x0 + 12, y: top - side + 14, ...scaleBar(perMile, SCALE_BAR_MIN) };
  const style = { size: 5.5, bold: true, color: COLORS.ink };
  const { labels, callOuts } = placeLabels(
    at.slice(0, NUMBERED_DOTS).map((dot, i) => ({ dot, w: f.width(String(i + 1), style) + 1.5 })),
    { x: x0 + 2, y: top - side + 2, w: side - 4, h: side - 4 },
    [{ x: cx - 7, y: cy - 7, w: 14, h: 14 }, ...ringLabels, { x: north.x - 8, y: north.y - 28, w: 16, h: 31 }, { x: bar.x - 6, y: bar.y - 1, w: bar.length + 12 + f.width(bar.label, { size: 6.5 }) / 2, h: 14 }],
  );
  for (const l of labels) {
    const from = at[l.n - 1]!;
    if (l.leader) page.line(from.x, from.y, Math.min(Math.max(from.x, l.box.x), l.box.x + l.box.w), Math.min(Math.max(from.y, l.box.y), l.box.y + l.box.h), 0.4, COLORS.muted);
    page.rect(l.box.x, l.box.y, l.box.w, l.box.h, { fill: COLORS.white });
    f.text(String(l.n), l.box.x + 0.75, l.box.y + 1.3, style);
  }

  drawNorthArrow(f, north.x, north.y);
  drawScaleBar(f, bar.x, bar.y, bar);
  f.y = top - side;
  return callOuts.map((n) => findings[n - 1]!);
}

function drawNorthArrow(f: Flow, x: number, yTop: number): void {
  // an arrowhead pointing up, its tip at (x, yTop - 10) and a notch in its base
  const tip = yTop - 10;
  f.page.polygon([[x, tip], [x + 6, tip - 16], [x, tip - 12], [x - 6, tip - 16]], { fill: COLORS.navy, stroke: COLORS.navy, width: 0.5 });
  f.text('N', x, yTop - 6, { size: 8, bold: true, color: COLORS.navy }, 'center');
}

/** Points the scale bar is at least: shorter, a reader could not measure with it. */
const SCALE_BAR_MIN = 40;

/** A bar a round number of miles long (../shared/scale-bar.ts), with its label. */
function drawScaleBar(f: Flow, x: number, y: number, bar: { label: string; length: number }): void {
  const w = bar.length;
  f.rect(x, y, w / 2, 3, COLORS.ink);
  f.rect(x + w / 2, y, w / 2, 3, COLORS.white, COLORS.ink);
  f.text('0', x, y + 6, { size: 6.5, color: COLORS.muted }, 'center');
  f.text(bar.label, x + w, y + 6, { size: 6.5, color: COLORS.muted }, 'center');
}

/** The legend under the map: the site's mark (`site` names it), and the score bands with their counts (and those without enough data to judge, when any). */
export function drawMapLegend(f: Flow, findings: readonly Finding[], site: string): void {
  let x = PAGE.margin;
  f.y -= 14;
  f.page.rect(x, f.y - 1, 7, 7, { stroke: COLORS.navy, width: 1.4 });
  f.text(site, x + 11, f.y, { size: 7.5, color: COLORS.muted });
  x += Math.max(60, 24 + f.width(site, { size: 7.5 }));
  const entries = findings.some((g) => !g.data_sufficient) ? [...SCORE_BANDS, NOT_ENOUGH_DATA_LOOK] : SCORE_BANDS;
  for (const b of entries) {
    const n = findings.filter((g) => scoreLook(g) === b).length;
    f.page.circle(x + 3.5, f.y + 2.5, 3.4, { fill: b.color });
    const label = 'range' in b ? `${b.label} (${b.range}): ${n}` : `${b.label}: ${n}`;
    f.text(label, x + 11, f.y, { size: 7.5, color: COLORS.muted });
    x += 24 + f.width(label, { size: 7.5 });
  }
  f.y -= 4;
}
