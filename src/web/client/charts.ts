import { h, s } from './dom';
import { bandFor, bandOf } from './score-band';

/** Half-circle gauge of a 0-100 score, with the number and its band word in text. */
export function gauge(score: number, sufficient = true): SVGSVGElement {
  // not enough data to judge: the integer stays, the band gives way to grey "Not enough data", as in the lists
  const band = bandFor(score, sufficient);
  const r = 80;
  const cx = 100;
  const cy = 95;
  const arc = (from: number, to: number) => {
    const a0 = Math.PI * (1 - from / 100);
    const a1 = Math.PI * (1 - to / 100);
    const p = (a: number) => `${(cx + r * Math.cos(a)).toFixed(2)} ${(cy - r * Math.sin(a)).toFixed(2)}`;
    return `M ${p(a0)} A ${r} ${r} 0 0 1 ${p(a1)}`;
  };
  return s(
    'svg',
    { viewBox: '0 0 200 115', class: 'gauge', role: 'img', 'aria-label': `Score ${score} out of 100, ${band.label}` },
    s('path', { d: arc(0, 100), class: 'gauge-track' }),
    score > 0 ? s('path', { d: arc(0, Math.max(0.5, score)), class: `gauge-value band-${band.cls}` }) : null,
    s('text', { x: cx, y: cy - 12, class: 'gauge-number', 'text-anchor': 'middle' }, String(score)),
    s('text', { x: cx, y: cy + 12, class: 'gauge-label', 'text-anchor': 'middle' }, band.label),
  );
}

/** One component as a bar of its points against its maximum, as a native <meter> with text beside it. */
export function componentBar(name: string, score: number, max: number): HTMLDivElement {
  const id = `meter-${name.replace(/\W+/g, '-').toLowerCase()}`;
  return h(
    'div',
    { class: 'component' },
    h('label', { for: id }, name),
    h('meter', { id, min: 0, max, value: score, low: max * 0.5, high: max * 0.9, optimum: max }),
    h('span', { class: 'component-points' }, `${score} / ${max}`),
  );
}

export type HistoryPoint = { as_of: string; score: number };

/** Score over time as a line of points (oldest left); a table beside it carries the same numbers. */
export function historyChart(points: HistoryPoint[]): SVGSVGElement {
  const W = 600;
  const H = 200;
  const pad = { l: 36, r: 12, t: 12, b: 28 };
  const sorted = [...points].sort((a, b) => a.as_of.localeCompare(b.as_of));
  const t = sorted.map((p) => Date.parse(p.as_of));
  const t0 = Math.min(...t);
  const t1 = Math.max(...t);
  const x = (ms: number) => pad.l + (t1 === t0 ? (W - pad.l - pad.r) / 2 : ((ms - t0) / (t1 - t0)) * (W - pad.l - pad.r));
  const y = (v: number) => pad.t + (1 - v / 100) * (H - pad.t - pad.b);
  const svg = s('svg', {
    viewBox: `0 0 ${W} ${H}`,
    class: 'history-chart',
    role: 'img',
    'aria-label': `Score over time: ${sorted.map((p) => `${p.score} on ${p.as_of}`).join(', ')}`,
  });
  for (const v of [0, 50, 100]) {
    svg.append(s('line', { x1: pad.l, x2: W - pad.r, y1: y(v), y2: y(v), class: 'grid' }));
    svg.append(s('text', { x: pad.l - 6, y: y(v) + 4, 'text-anchor': 'end', class: 'axis' }, String(v)));
  }
  svg.append(s('text', { x: pad.l, y: H - 8, class: 'axis' }, sorted[0]?.as_of ?? ''));
  if (sorted.length > 1) svg.append(s('text', { x: W - pad.r, y: H - 8, 'text-anchor': 'end', class: 'axis' }, sorted[sorted.length - 1]!.as_of));
  svg.append(s('polyline', { points: sorted.map((p, i) => `${x(t[i]!).toFixed(1)},${y(p.score).toFixed(1)}`).join(' '), class: 'history-line' }));
  sorted.forEach((p, i) => svg.append(s('circle', { cx: x(t[i]!).toFixed(1), cy: y(p.score).toFixed(1), r: 4, class: `dot band-${bandOf(p.score).cls}` }, s('title', {}, `${p.as_of}: ${p.score}`))));
  return svg;
}
