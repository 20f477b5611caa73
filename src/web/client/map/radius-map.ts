import { geoAzimuthalEquidistant, geoDistance } from 'd3-geo';
import { s } from '../dom';
import { bandFor } from '../score-band';
import { placeLabels, type Box } from '../../../shared/label-placement';
import { scaleBar } from '../../../shared/scale-bar';

/**
 * A finding on the map: its row number, where it is, and what its <title> says (distance from the site or the parcel's boundary);
 * `sufficient` false: not enough data to judge (a grey dot, "Not enough data" in place of the band).
 */
export type RadiusDot = { n: number; id: string; name: string; score: number; sufficient: boolean; miles: number; direction: string; lat: number; lng: number };
/** A parcel: GeoJSON polygons' rings of [lng, lat]. */
export type RadiusParcel = number[][][][];

const SIZE = 480;
/** As many numbered dots as the PDF's map (src/site-report/radius-map.ts). */
const NUMBERED_DOTS = 40;
const MARGIN = 16;
/** Pixels the scale bar is at least, as the PDF's is in points. */
const SCALE_BAR_MIN = 40;
/** The service's Earth radius (src/area/geo.ts), so a mile on the map is the report's mile. */
const EARTH_RADIUS_MILES = 6371.0088 / 1.609344;
const RINGS = [
  { miles: 0.125, label: '1/8 mi' },
  { miles: 0.25, label: '1/4 mi' },
  { miles: 0.5, label: '1/2 mi' },
  { miles: 1, label: '1 mi' },
];

/** Miles from the site to the farthest vertex of its parcel (0 without one). */
export function parcelReach(site: { lat: number; lng: number }, parcel: RadiusParcel | null): number {
  let r = 0;
  for (const rings of parcel ?? []) for (const ring of rings) for (const [lng, lat] of ring) r = Math.max(r, geoDistance([site.lng, site.lat], [lng!, lat!]) * EARTH_RADIUS_MILES);
  return r;
}

/**
 * The site report's radius map as SVG, drawn from the report alone (no outlines, no network), as
 * the PDF's: azimuthal equidistant about the site (north up; every point at its true great-circle
 * distance and initial bearing from the centre, to scale), rings at 1/8, 1/4, 1/2 and 1 mile (and
 * `maxMiles` beyond a mile), a parcel's outline, each finding a dot at its coordinates coloured by
 * score band with its name, score and direction in a <title>, the nearest numbered as in the
 * findings table (never over another number, the site's mark, the north arrow or the scale bar); a
 * north arrow and a scale bar of a round length.
 */
export function radiusMap(site: { lat: number; lng: number }, dots: RadiusDot[], maxMiles: number, label: string, parcel: RadiusParcel | null = null): SVGSVGElement {
  const outer = Math.max(1, maxMiles);
  const c = SIZE / 2;
  const perMile = (c - MARGIN) / outer;
  const projection = geoAzimuthalEquidistant().rotate([-site.lng, -site.lat]).scale(perMile * EARTH_RADIUS_MILES).translate([c, c]);
  const at = (d: { lat: number; lng: number }) => {
    const [x, y] = projection([d.lng, d.lat])!;
    return { x, y };
  };
  const svg = s('svg', { viewBox: `0 0 ${SIZE} ${SIZE}`, class: 'radius-map', role: 'img', 'aria-label': label });
  svg.append(s('rect', { x: 0, y: 0, width: SIZE, height: SIZE, class: 'radius-bg' }));
  svg.append(s('line', { x1: c, y1: 6, x2: c, y2: SIZE - 6, class: 'radius-axis' }), s('line', { x1: 6, y1: c, x2: SIZE - 6, y2: c, class: 'radius-axis' }));
  const rings = maxMiles > 1 ? [...RINGS, { miles: maxMiles, label: `${maxMiles} mi` }] : RINGS;
  const ringLabels: Box[] = [];
  for (const ring of rings) {
    const r = ring.miles * perMile;
    const [x, y] = [c + r * Math.SQRT1_2 + 3, c - r * Math.SQRT1_2 - 3];
    svg.append(s('circle', { cx: c, cy: c, r: r.toFixed(2), class: ring.miles === 1 ? 'radius-ring radius-ring-mile' : 'radius-ring' }));
    svg.append(s('text', { x: x.toFixed(1), y: y.toFixed(1), class: 'radius-label' }, ring.label));
    ringLabels.push({ x, y: y - 10, w: ring.label.length * 6.5, h: 12 });
  }
  if (parcel) {
    // vertex to vertex, as the PDF draws it (a d3 polygon would read the winding the other way round); holes stay open by the even-odd rule
    const d = parcel.flatMap((rings) => rings.map((ring) => `M${ring.map(([lng, lat]) => { const p = at({ lat: lat!, lng: lng! }); return `${p.x.toFixed(1)} ${p.y.toFixed(1)}`; }).join('L')}Z`)).join('');
    svg.append(s('path', { d, class: 'radius-parcel', 'fill-rule': 'evenodd' }, s('title', {}, 'The parcel')));
  }
  // worst scores drawn last, so they sit on top where dots overlap
  for (const d of [...dots].sort((a, b) => b.score - a.score)) {
    const { x, y } = at(d);
    const band = bandFor(d.score, d.sufficient);
    svg.append(
      s('circle', { cx: x.toFixed(2), cy: y.toFixed(2), r: 5, class: `dot band-${band.cls}`, 'data-registry-id': d.id },
        s('title', {}, `${d.n}. ${d.name}: score ${d.score} (${band.label}), ${d.miles.toFixed(3)} mi ${d.direction}`)),
    );
  }
  svg.append(s('rect', { x: c - 6, y: c - 6, width: 12, height: 12, class: 'radius-site' }, s('title', {}, parcel ? "The parcel's centre" : 'The site')));
  // north arrow, top right; scale bar, bottom left (its end label centred on the bar's end, as on the PDF)
  const bar = scaleBar(perMile, SCALE_BAR_MIN);
  const barBox = { x: 6, y: SIZE - 37, w: bar.length + 8 + bar.label.length * 4, h: 23 };
  const northBox = { x: SIZE - 32, y: 10, w: 24, h: 42 };
  // the nearest numbered as in the table and on the PDF's map, placed as there: never over another number, the site, a ring's label, the arrow or the bar
  const numbered = dots.slice(0, NUMBERED_DOTS);
  const { labels } = placeLabels(numbered.map((d) => ({ dot: at(d), w: String(d.n).length * 6.5 + 3 })), { x: 2, y: 2, w: SIZE - 4, h: SIZE - 4 }, [{ x: c - 8, y: c - 8, w: 16, h: 16 }, ...ringLabels, northBox, barBox], 12, 1.6);
  for (const l of labels) {
    const d = numbered[l.n - 1]!;
    const from = at(d);
    if (l.leader) svg.append(s('line', { x1: from.x.toFixed(1), y1: from.y.toFixed(1), x2: Math.min(Math.max(from.x, l.box.x), l.box.x + l.box.w).toFixed(1), y2: Math.min(Math.max(from.y, l.box.y), l.box.y + l.box.h).toFixed(1), class: 'dot-leader' }));
    svg.append(s('rect', { x: l.box.x.toFixed(1), y: l.box.y.toFixed(1), width: l.box.w.toFixed(1), height: l.box.h, class: 'dot-number-bg' }));
    svg.append(s('text', { x: (l.box.x + l.box.w / 2).toFixed(1), y: (l.box.y + l.box.h - 2).toFixed(1), class: 'dot-number', 'data-registry-id': d.id }, String(d.n)));
  }
  svg.append(s('path', { d: `M${SIZE - 28} 34 l8 -20 l8 20 l-8 -5 z`, class: 'radius-north' }), s('text', { x: SIZE - 20, y: 48, class: 'radius-north-label' }, 'N'));
  svg.append(
    s(
      'g',
      { class: 'radius-scale-bar', 'data-miles': bar.miles },
      s('rect', { x: 14, y: SIZE - 20, width: bar.length.toFixed(1), height: 4, class: 'radius-scale' }),
      s('text', { x: 14, y: SIZE - 26, class: 'radius-label', 'text-anchor': 'middle' }, '0'),
      s('text', { x: (14 + bar.length).toFixed(1), y: SIZE - 26, class: 'radius-label', 'text-anchor': 'middle' }, bar.label),
    ),
  );
  return svg;
}
