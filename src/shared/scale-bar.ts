/**
 * The scale bar of a radius map (the PDF's and the web page's draw alike): a round length, so a
 * reader can measure with it. The longest ASTM ring is a mile, but a parcel's map reaches as far as
 * its farthest corner, so the lengths go on past a mile.
 */
const LENGTHS: readonly [number, string][] = [
  [0.125, '1/8 mi'],
  [0.25, '1/4 mi'],
  [0.5, '1/2 mi'],
  [1, '1 mi'],
  [2, '2 mi'],
  [5, '5 mi'],
  [10, '10 mi'],
  [20, '20 mi'],
  [50, '50 mi'],
  [100, '100 mi'],
  [200, '200 mi'],
  [500, '500 mi'],
];

/** The shortest round length whose bar is at least `min` units long on a map of `perMile` units a mile (the longest when none is). */
export function scaleBar(perMile: number, min: number): { miles: number; label: string; length: number } {
  const [miles, label] = LENGTHS.find(([m]) => m * perMile >= min) ?? LENGTHS[LENGTHS.length - 1]!;
  return { miles, label, length: miles * perMile };
}
