import { s } from '../dom';
import { bandOf } from '../score-band';
import { placeLabels } from '../../../shared/label-placement';

export type RadiusDot = { n: number; id: string; name: string; score: number; miles: number; bearing: number; direction: string };

const SIZE = 480;
/** As many numbered dots as the PDF's map (src/site-report/radius-map.ts). */
const NUMBERED_DOTS = 40;
const MARGIN = 16;
const RINGS = [
  { miles: 0.125, label: '1/8 mi' },
  { miles: 0.25, label: '1/4 mi' },
  { miles: 0.5, label: '1/2 mi' },
  { miles: 1, label: '1 mi' },
];

/**
 * The site report's radius map as SVG, drawn from the report alone (no outlines, no network): the
 * site at the centre, rings at 1/8, 1/4, 1/2 and 1 mile (and the largest search distance beyond
 * a mile), each finding a dot at its bearing and distance (north up, distances to scale), coloured
 * by score band with its name, score and direction in a <title>, the nearest numbered as in the
 * findings table; a north arrow and a scale bar.
 */
export function radiusMap(dots: RadiusDot[], maxMiles: number, label: string): SVGSVGElement {
  const outer = Math.max(1, maxMiles);
  const c = SIZE / 2;
  const perMile = (c - MARGIN) / outer;
  const svg = s('svg', { viewBox: `0 0 ${SIZE} ${SIZE}`, class: 'radius-map', role: 'img', 'aria-label': label });
  svg.append(s('rect', { x: 0, y: 0, width: SIZE, height: SIZE, class: 'radius-bg' }));
  svg.append(s('line', { x1: c, y1: 6, x2: c, y2: SIZE - 6, class: 'radius-axis' }), s('line', { x1: 6, y1: c, x2: SIZE - 6, y2: c, class: 'radius-axis' }));
  const rings = maxMiles > 1 ? [...RINGS, { miles: maxMiles, label: `${maxMiles} mi` }] : RINGS;
  for (const ring of rings) {
    const r = ring.miles * perMile;
    svg.append(s('circle', { cx: c, cy: c, r: r.toFixed(2), class: ring.miles === 1 ? 'radius-ring radius-ring-mile' : 'radius-ring' }));
    svg.append(s('text', { x: (c + r * Math.SQRT1_2 + 3).toFixed(1), y: (c - r * Math.SQRT1_2 - 3).toFixed(1), class: 'radius-label' }, ring.label));
  }
  // worst scores drawn last, so they sit on top where dots overlap
  for (const d of [...dots].sort((a, b) => b.score - a.score)) {
    const r = d.miles * perMile;
    const x = c + r * Math.sin((d.bearing * Math.PI) / 180);
    const y = c - r * Math.cos((d.bearing * Math.PI) / 180);
    const band = bandOf(d.score);
    svg.append(
      s('circle', { cx: x.toFixed(2), cy: y.toFixed(2), r: 5, class: `dot band-${band.cls}`, 'data-registry-id': d.id },
        s('title', {}, `${d.n}. ${d.name}: score ${d.score} (${band.label}), ${d.miles.toFixed(3)} mi ${d.direction}`)),
    );
  }
  svg.append(s('rect', { x: c - 6, y: c - 6, width: 12, height: 12, class: 'radius-site' }, s('title', {}, 'The site')));
  // the nearest numbered as in the table and on the PDF's map, placed as there: never over another number or the site
  const at = (d: RadiusDot) => {
    const r = d.miles * perMile;
    return { x: c + r * Math.sin((d.bearing * Math.PI) / 180), y: c - r * Math.cos((d.bearing * Math.PI) / 180) };
  };
  const numbered = dots.slice(0, NUMBERED_DOTS);
  const { labels } = placeLabels(numbered.map((d) => ({ dot: at(d), w: String(d.n).length * 6.5 + 3 })), { x: 2, y: 2, w: SIZE - 4, h: SIZE - 4 }, [{ x: c - 8, y: c - 8, w: 16, h: 16 }], 12, 1.6);
  for (const l of labels) {
    const d = numbered[l.n - 1]!;
    const from = at(d);
    if (l.leader) svg.append(s('line', { x1: from.x.toFixed(1), y1: from.y.toFixed(1), x2: Math.min(Math.max(from.x, l.box.x), l.box.x + l.box.w).toFixed(1), y2: Math.min(Math.max(from.y, l.box.y), l.box.y + l.box.h).toFixed(1), class: 'dot-leader' }));
    svg.append(s('rect', { x: l.box.x.toFixed(1), y: l.box.y.toFixed(1), width: l.box.w.toFixed(1), height: l.box.h, class: 'dot-number-bg' }));
    svg.append(s('text', { x: (l.box.x + l.box.w / 2).toFixed(1), y: (l.box.y + l.box.h - 2).toFixed(1), class: 'dot-number', 'data-registry-id': d.id }, String(d.n)));
  }
  // north arrow, top right
  svg.append(s('path', { d: `M${SIZE - 28} 34 l8 -20 l8 20 l-8 -5 z`, class: 'radius-north' }), s('text', { x: SIZE - 20, y: 48, class: 'radius-north-label' }, 'N'));
  // scale bar, bottom left: 1/4 mile, or 1/2 when the map is wide
  const barMiles = perMile * 0.25 >= 40 ? 0.25 : 0.5;
  const w = barMiles * perMile;
  svg.append(
    s('rect', { x: 14, y: SIZE - 20, width: w.toFixed(1), height: 4, class: 'radius-scale' }),
    s('text', { x: 14, y: SIZE - 26, class: 'radius-label' }, '0'),
    s('text', { x: (14 + w).toFixed(1), y: SIZE - 26, class: 'radius-label', 'text-anchor': 'end' }, barMiles === 0.25 ? '1/4 mi' : '1/2 mi'),
  );
  return svg;
}
