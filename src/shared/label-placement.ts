/**
 * Where the numbers of a radius map's dots go (the PDF's and the web page's maps number alike):
 * beside each dot when there is room, else further out on a leader line, never over another
 * number or a reserved box (the site's mark), else in a call-out list.
 */
/** A label's box: x, y its corner with the smallest coordinates. */
export type Box = { x: number; y: number; w: number; h: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

// where a label may go around its dot, nearest first: beside it, then further out on a leader line
const OFFSETS: readonly [number, number][] = [6, 14, 24, 36].flatMap((d) =>
  [0, 45, 90, 135, 180, 225, 270, 315, 22.5, 67.5, 112.5, 157.5, 202.5, 247.5, 292.5, 337.5].map((a): [number, number] => [d * Math.cos((a * Math.PI) / 180), d * Math.sin((a * Math.PI) / 180)]),
);

/**
 * Places the numbers 1..n of `dots` (each `w` points wide) in order: each at the nearest offset
 * around its dot where its box stays in `frame` and overlaps no box in `taken` nor a number placed
 * before it (`leader`: moved away from its dot, to be joined to it by a line); a number with no such
 * place is a call-out (its number is returned instead). `h`: a number's height; `scale`: the
 * offsets' (in points of a PDF map; a larger drawing spreads them).
 */
export function placeLabels(dots: readonly { dot: { x: number; y: number }; w: number }[], frame: Box, taken: readonly Box[], h = 6.5, scale = 1): { labels: { n: number; box: Box; leader: boolean }[]; callOuts: number[] } {
  const used = [...taken];
  const inside = (b: Box) => b.x >= frame.x && b.y >= frame.y && b.x + b.w <= frame.x + frame.w && b.y + b.h <= frame.y + frame.h;
  const labels: { n: number; box: Box; leader: boolean }[] = [];
  const callOuts: number[] = [];
  dots.forEach(({ dot, w }, i) => {
    for (const [ox, oy] of OFFSETS) {
      const [dx, dy] = [ox * scale, oy * scale];
      // the box's corner nearest the dot sits at the offset, so the number reads away from its dot
      const box = { x: dx >= 0 ? dot.x + dx : dot.x + dx - w, y: dy >= 0 ? dot.y + dy - 1 : dot.y + dy - h + 1, w, h };
      if (!inside(box) || used.some((t) => overlaps(t, box))) continue;
      used.push(box);
      labels.push({ n: i + 1, box, leader: Math.hypot(ox, oy) > 7 });
      return;
    }
    callOuts.push(i + 1);
  });
  return { labels, callOuts };
}
