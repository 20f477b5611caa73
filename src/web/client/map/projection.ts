import { geoAlbers, geoConicEqualArea, type GeoProjection, type GeoStream } from 'd3-geo';

/**
 * d3's Albers USA (lower 48, Alaska at 0.35 scale, Hawaii) plus a Puerto Rico inset, which d3's
 * own composite leaves out. Same construction as d3-geo's geoAlbersUsa: each part clips to its own
 * rectangle, and the rectangles hold mutually exclusive parts of the sphere, so a geometry streamed
 * to all parts is drawn once. Alaska's conic is rotated to 154°W, so its cut meridian is 26°E:
 * the Aleutians west of 180° and a circle crossing the antimeridian stay in one piece.
 * Configured for a 960x500 frame (scale 1070, translate [480, 250]).
 */
export type Composite = {
  /** [x, y] of a lon/lat, or null when it falls in none of the parts (e.g. Guam). */
  (point: [number, number]): [number, number] | null;
  stream(out: GeoStream): GeoStream;
  /** [lon, lat] of a point of the frame, or null outside every part (a click on the map). */
  invert(point: [number, number]): [number, number] | null;
};

const EPS = 1e-6;

export function albersUsaPr(): Composite {
  const k = 1070;
  const [x, y] = [480, 250];
  const lower48 = geoAlbers().parallels([29.5, 45.5]).rotate([96, 0]).center([-0.6, 38.7]).scale(k).translate([x, y]);
  lower48.clipExtent([[x - 0.455 * k, y - 0.238 * k], [x + 0.455 * k, y + 0.238 * k]]);
  const alaska = geoConicEqualArea().rotate([154, 0]).center([-2, 58.5]).parallels([55, 65]).scale(k * 0.35).translate([x - 0.307 * k, y + 0.201 * k]);
  alaska.clipExtent([[x - 0.425 * k + EPS, y + 0.12 * k + EPS], [x - 0.214 * k - EPS, y + 0.234 * k - EPS]]);
  const hawaii = geoConicEqualArea().rotate([157, 0]).center([-3, 19.9]).parallels([8, 18]).scale(k).translate([x - 0.205 * k, y + 0.212 * k]);
  hawaii.clipExtent([[x - 0.214 * k + EPS, y + 0.166 * k + EPS], [x - 0.115 * k - EPS, y + 0.234 * k - EPS]]);
  // Puerto Rico and the US Virgin Islands, bottom right, at the lower 48's scale (east of Florida's tip).
  const puertoRico = geoConicEqualArea().rotate([66, 0]).center([0, 18.2]).parallels([8, 18]).scale(k).translate([x + 0.35 * k, y + 0.212 * k]);
  puertoRico.clipExtent([[x + 0.3 * k + EPS, y + 0.19 * k + EPS], [x + 0.4 * k - EPS, y + 0.234 * k - EPS]]);
  const parts: GeoProjection[] = [lower48, alaska, hawaii, puertoRico];

  let found: [number, number] | null = null;
  const catcher: GeoStream = {
    point: (px: number, py: number) => void (found = [px, py]),
    lineStart() {},
    lineEnd() {},
    polygonStart() {},
    polygonEnd() {},
    sphere() {},
  };
  const pointStreams = parts.map((p) => p.stream(catcher));

  const project = ((lonLat: [number, number]) => {
    for (const st of pointStreams) {
      found = null;
      st.point(lonLat[0], lonLat[1]);
      if (found) return found;
    }
    return null;
  }) as Composite;
  project.stream = (out: GeoStream) => {
    const streams = parts.map((p) => p.stream(out));
    const each = (f: (st: GeoStream) => void) => streams.forEach(f);
    return {
      point: (px, py) => each((st) => st.point(px, py)),
      sphere: () => each((st) => st.sphere?.()),
      lineStart: () => each((st) => st.lineStart()),
      lineEnd: () => each((st) => st.lineEnd()),
      polygonStart: () => each((st) => st.polygonStart()),
      polygonEnd: () => each((st) => st.polygonEnd()),
    };
  };
  // the insets first: the lower 48's clip rectangle covers the whole frame, theirs included
  project.invert = ([px, py]: [number, number]) => {
    for (const part of [alaska, hawaii, puertoRico, lower48]) {
      const [[x0, y0], [x1, y1]] = part.clipExtent()!;
      if (px >= x0 && px <= x1 && py >= y0 && py <= y1) return part.invert!([px, py]);
    }
    return null;
  };
  return project;
}

/** Where the inset frames sit in the 960x500 frame, to draw their borders. */
export const INSET_FRAMES: [number, number, number, number][] = (() => {
  const k = 1070;
  const [x, y] = [480, 250];
  const box = (x0: number, y0: number, x1: number, y1: number): [number, number, number, number] => [x + x0 * k, y + y0 * k, (x1 - x0) * k, (y1 - y0) * k];
  return [box(-0.425, 0.12, -0.214, 0.234), box(-0.214, 0.166, -0.115, 0.234), box(0.3, 0.19, 0.4, 0.234)];
})();
