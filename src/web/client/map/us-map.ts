import { geoCircle, geoPath } from 'd3-geo';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import states from 'us-atlas/states-10m.json';
import { s } from '../dom';
import { bandOf } from '../score-band';
import { albersUsaPr, INSET_FRAMES } from './projection';

const EARTH_RADIUS_MILES = 3958.7613;
const FRAME = { w: 960, h: 500 };
const ASPECT = FRAME.w / FRAME.h;
/** Dot radius as a share of the frame's width: the same size on screen at any zoom. */
const DOT_SHARE = 150;

export type MapDot = { id: string; name: string; score: number; lng: number; lat: number };

const projection = albersUsaPr();
const path = geoPath(projection as never);

// The country's outlines are projected once per page load (a few ms) and reused by every map.
let outlines: { land: string; borders: string } | null = null;
function statesOutlines(): { land: string; borders: string } {
  if (!outlines) {
    const topo = states as unknown as Topology<{ states: GeometryCollection }>;
    outlines = {
      land: path(feature(topo, topo.objects.states)) ?? '',
      borders: path(mesh(topo, topo.objects.states, (a, b) => a !== b)) ?? '',
    };
  }
  return outlines;
}

/** The true (geodesic) circle of `miles` around a point, as a GeoJSON polygon. */
export function radiusCircle(lng: number, lat: number, miles: number) {
  return geoCircle()
    .center([lng, lat])
    .radius((miles / EARTH_RADIUS_MILES) * (180 / Math.PI))
    .precision(1)();
}

/**
 * US map (offline: us-atlas outlines, Albers USA with AK/HI/PR insets) with the search circle and
 * one dot per facility coloured by score band, zoomed to the circle. Dots that fall outside every
 * inset (e.g. Guam) are not drawn; the caller lists them.
 */
export function usMap(opts: { center: { lat: number; lng: number }; radiusMiles: number; dots: MapDot[]; label: string; onPick?: (lat: number, lng: number) => void }): { svg: SVGSVGElement; drawn: number; showWhole: (whole: boolean) => void } {
  const { land, borders } = statesOutlines();
  const circle = radiusCircle(opts.center.lng, opts.center.lat, opts.radiusMiles);
  const circlePath = path(circle) ?? '';
  let [[x0, y0], [x1, y1]] = path.bounds(circle);
  // Zoom to the circle with a margin; the whole country when the circle is off the map.
  const ok = circlePath !== '' && [x0, y0, x1, y1].every(Number.isFinite);
  if (!ok) [[x0, y0], [x1, y1]] = [[0, 0], [FRAME.w, FRAME.h]];
  // The frame keeps the 960x500 country frame's aspect (CSS gives the element the same one), so
  // what is drawn fills the element at every width.
  const h = Math.max(y1 - y0, (x1 - x0) / ASPECT) * (ok ? 1.3 : 1);
  const cx = (x0 + x1) / 2;
  const cy = (y0 + y1) / 2;
  const zoomed = [cx - (h * ASPECT) / 2, cy - h / 2, h * ASPECT, h];
  const whole = [0, 0, FRAME.w, FRAME.h];
  const vb = ok ? zoomed : whole;
  const dotR = vb[2]! / DOT_SHARE;

  const svg = s('svg', { viewBox: vb.map((v) => v.toFixed(3)).join(' '), class: 'us-map', role: 'img', 'aria-label': opts.label, preserveAspectRatio: 'xMidYMid slice' });
  svg.append(s('path', { d: land, class: 'land' }));
  svg.append(s('path', { d: borders, class: 'borders' }));
  for (const [fx, fy, fw, fh] of INSET_FRAMES) svg.append(s('rect', { x: fx, y: fy, width: fw, height: fh, class: 'inset-frame' }));
  if (circlePath) svg.append(s('path', { d: circlePath, class: 'radius-circle' }));
  const c = projection([opts.center.lng, opts.center.lat]);
  if (c) svg.append(s('path', { d: `M${c[0] - dotR} ${c[1]}h${2 * dotR}M${c[0]} ${c[1] - dotR}v${2 * dotR}`, class: 'center-mark' }));
  let drawn = 0;
  // Worst scores drawn last, so they sit on top where dots overlap.
  for (const d of [...opts.dots].sort((a, b) => b.score - a.score)) {
    const p = projection([d.lng, d.lat]);
    if (!p) continue;
    drawn++;
    svg.append(
      s('circle', { cx: p[0].toFixed(3), cy: p[1].toFixed(3), r: dotR.toFixed(3), class: `dot band-${bandOf(d.score).cls}`, 'data-registry-id': d.id },
        s('title', {}, `${d.name}: score ${d.score} (${bandOf(d.score).label})`)),
    );
  }
  if (opts.onPick) {
    const pick = opts.onPick;
    svg.classList.add('pickable');
    // screen -> frame through the element's own transform (viewBox and slice scaling), then the projection's inverse
    svg.addEventListener('click', (e) => {
      const m = svg.getScreenCTM();
      if (!m) return;
      const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
      const lonLat = projection.invert([p.x, p.y]);
      if (lonLat) pick(lonLat[1], lonLat[0]);
    });
  }
  /** Whole country or the circle: the frame changes, dots keep their size on screen. */
  const showWhole = (w: boolean) => {
    const box = w ? whole : vb;
    svg.setAttribute('viewBox', box.map((v) => v.toFixed(3)).join(' '));
    const r = (box[2]! / DOT_SHARE).toFixed(3);
    svg.querySelectorAll('circle.dot').forEach((c) => c.setAttribute('r', r));
  };
  return { svg, drawn, showWhole };
}
