import { geoCircle, geoPath } from 'd3-geo';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import states from 'us-atlas/states-10m.json';
import { s } from '../dom';
import { bandFor } from '../score-band';
import { albersUsaPr, INSET_FRAMES } from './projection';

const EARTH_RADIUS_MILES = 3958.7613;
const FRAME = { w: 960, h: 500 };
const ASPECT = FRAME.w / FRAME.h;
/** Dot radius as a share of the frame's width: the same size on screen at any zoom. */
const DOT_SHARE = 150;

/** `sufficient` false: not enough data to judge (a grey dot, "Not enough data" in place of the band). */
export type MapDot = { id: string; name: string; score: number; sufficient: boolean; lng: number; lat: number };

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
 * one dot per facility coloured by score band (grey: not enough data), zoomed to the circle. Dots that fall outside every
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
  if (c) {
    // A ring with a cross, twice a dot's size, above the dots: where the distances are measured from.
    const m = 2 * dotR;
    svg.append(
      s('g', { class: 'center-mark' }, s('title', {}, `Centre: ${opts.center.lat}, ${opts.center.lng}`),
        s('circle', { cx: c[0].toFixed(3), cy: c[1].toFixed(3), r: m.toFixed(3) }),
        s('path', { d: `M${(c[0] - 1.6 * m).toFixed(3)} ${c[1].toFixed(3)}h${(3.2 * m).toFixed(3)}M${c[0].toFixed(3)} ${(c[1] - 1.6 * m).toFixed(3)}v${(3.2 * m).toFixed(3)}` })),
    );
  }
  const scale = ok ? scaleBar(vb, (y1 - y0) / (2 * opts.radiusMiles), opts.radiusMiles) : null;
  let drawn = 0;
  const dotLayer = s('g', { class: 'dots' });
  svg.append(dotLayer);
  // Worst scores drawn last, so they sit on top where dots overlap.
  for (const d of [...opts.dots].sort((a, b) => b.score - a.score)) {
    const p = projection([d.lng, d.lat]);
    if (!p) continue;
    drawn++;
    const band = bandFor(d.score, d.sufficient);
    dotLayer.append(
      s('circle', { cx: p[0].toFixed(3), cy: p[1].toFixed(3), r: dotR.toFixed(3), class: `dot band-${band.cls}`, 'data-registry-id': d.id },
        s('title', {}, `${d.name}: score ${d.score} (${band.label})`)),
    );
  }
  // the centre above the dots, the scale above everything
  const mark = svg.querySelector('.center-mark');
  if (mark) svg.append(mark);
  if (scale) svg.append(scale);
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
    // the bar's length holds at the circle's zoom only
    scale?.toggleAttribute('hidden', w);
    const r = (box[2]! / DOT_SHARE).toFixed(3);
    svg.querySelectorAll('circle.dot').forEach((c) => c.setAttribute('r', r));
  };
  return { svg, drawn, showWhole };
}

/** Round lengths a scale bar may show, in miles. */
const SCALE_STEPS = [0.1, 0.25, 0.5, 1, 2, 5, 10, 20];

/**
 * A scale bar in the frame's lower left: the longest round length no longer than the radius (the
 * circle's own height gives map units per mile, so the bar is true at the centre's latitude).
 */
function scaleBar(vb: number[], unitsPerMile: number, radiusMiles: number): SVGGElement {
  const miles = SCALE_STEPS.filter((m) => m <= radiusMiles).at(-1) ?? radiusMiles;
  const [x, y, w, h] = vb as [number, number, number, number];
  const len = miles * unitsPerMile;
  const x0 = x + w * 0.03;
  const y0 = y + h * 0.94;
  const tick = h * 0.015;
  const label = `${miles} ${miles === 1 ? 'mile' : 'miles'}`;
  return s('g', { class: 'scale-bar', 'aria-label': `Scale: the bar is ${label}` },
    s('rect', { x: (x0 - w * 0.01).toFixed(3), y: (y0 - h * 0.065).toFixed(3), width: (len + w * 0.02).toFixed(3), height: (h * 0.085).toFixed(3), class: 'scale-back' }),
    s('path', { d: `M${x0.toFixed(3)} ${(y0 - tick).toFixed(3)}v${tick.toFixed(3)}h${len.toFixed(3)}v${(-tick).toFixed(3)}` }),
    s('text', { x: x0.toFixed(3), y: (y0 - tick * 1.6).toFixed(3), 'font-size': (h * 0.04).toFixed(3) }, label),
  );
}
