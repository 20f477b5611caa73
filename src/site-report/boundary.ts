import { DEG, EARTH_RADIUS_MILES, haversineMiles } from '../area/geo';

/**
 * A parcel (request `boundary`, docs/site-report.md "A parcel"): a GeoJSON Polygon or MultiPolygon
 * in WGS84, kept as rings of unwrapped longitudes (each within 180° of the first vertex, so a
 * parcel across the antimeridian is one shape) and as great-circle edges (unit vectors), so the
 * distance of a facility from the parcel is exact on the sphere.
 */
export type Parcel = {
  /** Polygons of rings (the first the outer one), [lng, lat] with unwrapped longitudes. */
  polygons: number[][][][];
  /** The same rings as flat arrays: lng, lat, lng, lat, ... (what the ring test reads). */
  flat: Float64Array[][];
  /** Longitude every ring is unwrapped around. */
  lng0: number;
  /** The parcel's centre (area-weighted), longitude in [-180, 180]: directions are taken from it. */
  centre: { lat: number; lng: number };
  /** Largest distance from the centre to a vertex, miles: the bounding circle of the cheap lower bound. */
  radius: number;
  vertices: number;
  /** Edges: start and end as unit vectors, and the unit normal of their great circle (0 for a point edge). */
  edges: Float64Array;
  /**
   * The edges in runs of EDGES_PER_RUN, each run as a cap holding all its edges' points: a centre
   * (unit vector) and an angular radius. A run whose cap is farther than the nearest edge found so
   * far holds no nearer edge, so a facility's distance measures a few runs, not every edge.
   */
  runs: Float64Array;
  /** The runs in groups of RUNS_PER_GROUP, each as a cap holding its runs' caps (laid out as runs are): a group beyond the nearest edge so far is skipped whole. */
  groups: Float64Array;
  /** The rings' bounds in unwrapped degrees: a point outside them is outside the parcel. */
  bounds: { minLng: number; maxLng: number; minLat: number; maxLat: number };
};

export const MAX_BOUNDARY_VERTICES = 2000;
const EDGE = 9;
const EDGES_PER_RUN = 8;
const RUNS_PER_GROUP = 8;
/** A run's cap in Parcel.runs: its centre (x, y, z), its radius r, sin(r / 2) and cos(r / 2). */
const RUN = 6;
/** Slack (radians, about 6 µm) by which a run's bound must exceed the nearest edge so far to be skipped: far above rounding, so the minimum found is the one every edge gives. */
const RUN_SLACK = 1e-12;

/** A longitude moved by whole turns to within 180° of `ref`. */
export function unwrap(lng: number, ref: number): number {
  return lng - 360 * Math.round((lng - ref) / 360);
}

function unit(lat: number, lng: number): [number, number, number] {
  const p = lat * DEG, l = lng * DEG;
  return [Math.cos(p) * Math.cos(l), Math.cos(p) * Math.sin(l), Math.sin(p)];
}

/** The parcel of checked rings (./request.ts checkBoundary). */
export function parcelOf(polygons: number[][][][]): Parcel {
  const lng0 = polygons[0]![0]![0]![0]!;
  const uw = polygons.map((rings) => rings.map((ring) => ring.map(([lng, lat]) => [unwrap(lng!, lng0), lat!])));
  // area-weighted centre on a plane scaled by cos(latitude) at the first vertex: exact enough for a parcel
  const k = Math.cos(uw[0]![0]![0]![1]! * DEG);
  let a = 0, cx = 0, cy = 0, vertices = 0;
  for (const rings of uw) {
    for (const ring of rings) {
      vertices += ring.length - 1;
      for (let i = 0; i + 1 < ring.length; i++) {
        const [x0, y0] = [ring[i]![0]! * k, ring[i]![1]!], [x1, y1] = [ring[i + 1]![0]! * k, ring[i + 1]![1]!];
        const cross = x0 * y1 - x1 * y0;
        a += cross;
        cx += (x0 + x1) * cross;
        cy += (y0 + y1) * cross;
      }
    }
  }
  const first = uw[0]![0]!;
  const centreUw = Math.abs(a) > 1e-18 ? { lat: cy / (3 * a), lng: cx / (3 * a) / k } : { lat: first[0]![1]!, lng: first[0]![0]! };
  const centre = { lat: centreUw.lat, lng: unwrap(centreUw.lng, 0) };
  const edges: number[] = [];
  let radius = 0;
  for (const rings of uw) {
    for (const ring of rings) {
      for (let i = 0; i + 1 < ring.length; i++) {
        const [lngA, latA] = ring[i]!, [lngB, latB] = ring[i + 1]!;
        radius = Math.max(radius, haversineMiles(centre.lat, centre.lng, latA!, lngA!));
        const A = unit(latA!, lngA!), B = unit(latB!, lngB!);
        let n = [A[1] * B[2] - A[2] * B[1], A[2] * B[0] - A[0] * B[2], A[0] * B[1] - A[1] * B[0]];
        const len = Math.hypot(n[0]!, n[1]!, n[2]!);
        n = len < 1e-15 ? [0, 0, 0] : n.map((v) => v / len);
        edges.push(...A, ...B, ...n);
      }
    }
  }
  const e = Float64Array.from(edges);
  let minLng = Infinity, maxLng = -Infinity, minLat = Infinity, maxLat = -Infinity;
  for (const rings of uw) for (const ring of rings) for (const [x, y] of ring) (minLng = Math.min(minLng, x!)), (maxLng = Math.max(maxLng, x!)), (minLat = Math.min(minLat, y!)), (maxLat = Math.max(maxLat, y!));
  const flat = uw.map((rings) => rings.map((ring) => Float64Array.from(ring.flat())));
  const runs = runsOf(e);
  return { polygons: uw, flat, lng0, centre, radius, vertices, edges: e, runs, groups: groupsOf(runs), bounds: { minLng, maxLng, minLat, maxLat } };
}

/**
 * A cap (RUN numbers at `at` of `out`) centred on the direction of the summed vector (x, y, z), as
 * wide as `radiusFrom(centre)` says; when the vectors cancel out (points all around a pole), any
 * centre with a radius of the whole sphere.
 */
function writeCap(out: Float64Array, at: number, x: number, y: number, z: number, radiusFrom: (cx: number, cy: number, cz: number) => number): void {
  const len = Math.hypot(x, y, z);
  const [cx, cy, cz] = len < 1e-12 ? [1, 0, 0] : [x / len, y / len, z / len];
  const radius = len < 1e-12 ? Math.PI : Math.min(radiusFrom(cx, cy, cz), Math.PI);
  out.set([cx, cy, cz, radius, Math.sin(radius / 2), Math.cos(radius / 2)], at);
}

/**
 * The caps of the edges' runs (Parcel.runs): centred on the mean of the run's ends, as wide as its
 * farthest end plus half its longest edge (a point of an edge is within half its length of an end).
 */
function runsOf(e: Float64Array): Float64Array {
  const edges = e.length / EDGE;
  const out = new Float64Array(Math.ceil(edges / EDGES_PER_RUN) * RUN);
  for (let r = 0; r * EDGES_PER_RUN < edges; r++) {
    const from = r * EDGES_PER_RUN * EDGE, to = Math.min(edges, (r + 1) * EDGES_PER_RUN) * EDGE;
    let x = 0, y = 0, z = 0;
    for (let i = from; i < to; i += EDGE) (x += e[i]! + e[i + 3]!), (y += e[i + 1]! + e[i + 4]!), (z += e[i + 2]! + e[i + 5]!);
    writeCap(out, r * RUN, x, y, z, (cx, cy, cz) => {
      let far = 0, halfEdge = 0;
      for (let i = from; i < to; i += EDGE) {
        far = Math.max(far, angleOf(cx, cy, cz, e[i]!, e[i + 1]!, e[i + 2]!), angleOf(cx, cy, cz, e[i + 3]!, e[i + 4]!, e[i + 5]!));
        halfEdge = Math.max(halfEdge, angleOf(e[i]!, e[i + 1]!, e[i + 2]!, e[i + 3]!, e[i + 4]!, e[i + 5]!) / 2);
      }
      return far + halfEdge;
    });
  }
  return out;
}

/** The caps of the groups of runs (Parcel.groups): centred on the mean of the runs' centres, as wide as the farthest run's centre plus its radius. */
function groupsOf(runs: Float64Array): Float64Array {
  const count = runs.length / RUN;
  const out = new Float64Array(Math.ceil(count / RUNS_PER_GROUP) * RUN);
  for (let g = 0; g * RUNS_PER_GROUP < count; g++) {
    const from = g * RUNS_PER_GROUP * RUN, to = Math.min(count, (g + 1) * RUNS_PER_GROUP) * RUN;
    let x = 0, y = 0, z = 0;
    for (let k = from; k < to; k += RUN) (x += runs[k]!), (y += runs[k + 1]!), (z += runs[k + 2]!);
    writeCap(out, g * RUN, x, y, z, (cx, cy, cz) => {
      let radius = 0;
      for (let k = from; k < to; k += RUN) radius = Math.max(radius, angleOf(cx, cy, cz, runs[k]!, runs[k + 1]!, runs[k + 2]!) + runs[k + 3]!);
      return radius;
    });
  }
  return out;
}

/** Whether (lat, lng) is inside the parcel (in an outer ring and in none of its holes), by ray casting on unwrapped coordinates. */
export function insideParcel(p: Parcel, lat: number, lng: number): boolean {
  const x = unwrap(lng, p.lng0);
  for (const rings of p.flat) {
    if (!inRing(rings[0]!, x, lat)) continue;
    let hole = false;
    for (let r = 1; r < rings.length && !hole; r++) hole = inRing(rings[r]!, x, lat);
    if (!hole) return true;
  }
  return false;
}

/** Ray casting over a ring's vertices as x0, y0, x1, y1, ... (the first repeated last). */
function inRing(ring: Float64Array, x: number, y: number): boolean {
  let inside = false;
  const n = ring.length / 2 - 1;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const xi = ring[2 * i]!, yi = ring[2 * i + 1]!, xj = ring[2 * j]!, yj = ring[2 * j + 1]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** The angle (radians) between unit vectors, from their chord: accurate at every size. */
function angleOf(ax: number, ay: number, az: number, bx: number, by: number, bz: number): number {
  const dx = ax - bx, dy = ay - by, dz = az - bz;
  const c = Math.sqrt(dx * dx + dy * dy + dz * dz) / 2;
  return 2 * Math.asin(c < 1 ? c : 1);
}

/**
 * Great-circle distance in miles from (lat, lng) to the parcel: 0 inside, else to the nearest edge
 * (its nearest point when the foot of the perpendicular lies on the edge, else its nearer end); when
 * it is more than `within` miles, some value above `within` (what a caller asking whether a facility
 * is within reach needs). Measured cheaply without changing the result: only runs whose cap comes
 * within both `within` and the nearest edge so far (Parcel.runs), the run whose centre is nearest
 * first, from the nearest of its ends; in a run, only the edges cheap tests do not put beyond the
 * nearest so far (nearestEdgeOfRun).
 */
export function distanceToParcel(p: Parcel, lat: number, lng: number, within = Infinity): number {
  const box = p.bounds;
  if (lat >= box.minLat && lat <= box.maxLat) {
    const x = unwrap(lng, p.lng0);
    if (x >= box.minLng && x <= box.maxLng && insideParcel(p, lat, lng)) return 0;
  }
  const phi = lat * DEG, lambda = lng * DEG, cosPhi = Math.cos(phi);
  const px = cosPhi * Math.cos(lambda), py = cosPhi * Math.sin(lambda), pz = Math.sin(phi);
  const runs = p.runs, groups = p.groups, e = p.edges;
  // a cap is skipped when its centre is farther than b + its radius (b: `within`, then the nearest
  // edge so far, with slack): compared as chords (2 sin(angle / 2)), sin((b + r) / 2) from the halves'
  let b = within / EARTH_RADIUS_MILES + RUN_SLACK, sinB = Math.sin(b / 2), cosB = Math.cos(b / 2);
  const beyond = (caps: Float64Array, k: number): boolean => {
    const dx = px - caps[k]!, dy = py - caps[k + 1]!, dz = pz - caps[k + 2]!;
    const half = sinB * caps[k + 5]! + cosB * caps[k + 4]!;
    return b + caps[k + 3]! < Math.PI && dx * dx + dy * dy + dz * dz > 4 * half * half;
  };
  const chord2To = (caps: Float64Array, k: number): number => {
    const dx = px - caps[k]!, dy = py - caps[k + 1]!, dz = pz - caps[k + 2]!;
    return dx * dx + dy * dy + dz * dz;
  };
  // the group, then the run in it, whose centre is nearest (of those within reach): measured first
  let firstGroup = -1, nearest = Infinity;
  for (let g = 0; g < groups.length; g += RUN) {
    const chord2 = chord2To(groups, g);
    if (chord2 >= nearest || beyond(groups, g)) continue;
    nearest = chord2;
    firstGroup = g;
  }
  if (firstGroup < 0) return Infinity;
  let first = -1;
  nearest = Infinity;
  for (let k = (firstGroup / RUN) * RUNS_PER_GROUP * RUN, to = Math.min(runs.length, k + RUNS_PER_GROUP * RUN); k < to; k += RUN) {
    const chord2 = chord2To(runs, k);
    if (chord2 >= nearest || beyond(runs, k)) continue;
    nearest = chord2;
    first = k;
  }
  const n: Nearest = { angle: Infinity, chord2: Infinity, sine: Infinity };
  if (first >= 0) {
    // the nearest end of that run bounds the distance: no edge beyond it is measured, and the edges
    // through it are (their value is at most its distance)
    const from = (first / RUN) * EDGES_PER_RUN * EDGE;
    let endChord2 = Infinity;
    for (let i = from, to = Math.min(e.length, from + EDGES_PER_RUN * EDGE); i < to; i += EDGE) {
      const dx = px - e[i]!, dy = py - e[i + 1]!, dz = pz - e[i + 2]!;
      endChord2 = Math.min(endChord2, dx * dx + dy * dy + dz * dz);
    }
    const c = Math.sqrt(endChord2);
    n.chord2 = endChord2 * (1 + SLACK);
    n.sine = c < Math.SQRT2 ? c * Math.sqrt(1 - endChord2 / 4) * (1 + SLACK) : Infinity;
    nearestEdgeOfRun(e, from, px, py, pz, n);
    if (n.angle + RUN_SLACK < b) (b = n.angle + RUN_SLACK), (sinB = Math.sin(b / 2)), (cosB = Math.cos(b / 2));
  }
  let best = n.angle;
  for (let g = 0; g < groups.length; g += RUN) {
    if (beyond(groups, g)) continue;
    for (let k = (g / RUN) * RUNS_PER_GROUP * RUN, to = Math.min(runs.length, k + RUNS_PER_GROUP * RUN); k < to; k += RUN) {
      if (k === first || beyond(runs, k)) continue;
      nearestEdgeOfRun(e, (k / RUN) * EDGES_PER_RUN * EDGE, px, py, pz, n);
      if (n.angle < best) {
        best = n.angle;
        if (best + RUN_SLACK < b) (b = best + RUN_SLACK), (sinB = Math.sin(b / 2)), (cosB = Math.cos(b / 2));
      }
    }
  }
  return best * EARTH_RADIUS_MILES;
}

/** Relative slack of the cheap tests (far above rounding, so what they skip is surely farther). */
const SLACK = 1e-9;

/**
 * The nearest edge so far: its angle, and the squared chord and the sine beyond which an end or a
 * foot on an arc is surely farther (the cheap tests).
 */
type Nearest = { angle: number; chord2: number; sine: number };

function setNearest(n: Nearest, angle: number): void {
  const b = angle * (1 + SLACK);
  const c = b < Math.PI ? 2 * Math.sin(b / 2) : Infinity;
  n.angle = angle;
  n.chord2 = c * c * (1 + SLACK);
  n.sine = b < Math.PI / 2 ? Math.sin(b) * (1 + SLACK) : Infinity;
}

/**
 * Lowers `n` to the nearest edge of the run starting at edge offset `from` when nearer. An edge is measured only when a cheap test
 * does not put it beyond `n`: the sine of its distance off its great circle when the foot lies on
 * the arc, else its squared chords to the ends; an end beyond is left out of the measure.
 */
function nearestEdgeOfRun(e: Float64Array, from: number, px: number, py: number, pz: number, n: Nearest): void {
  const to = Math.min(e.length, from + EDGES_PER_RUN * EDGE);
  for (let i = from; i < to; i += EDGE) {
    const ax = e[i]!, ay = e[i + 1]!, az = e[i + 2]!, bx = e[i + 3]!, by = e[i + 4]!, bz = e[i + 5]!, nx = e[i + 6]!, ny = e[i + 7]!, nz = e[i + 8]!;
    const s = px * nx + py * ny + pz * nz;
    // the foot q = p - s n lies on the arc when it is on the inner side of both ends' planes
    const qx = px - s * nx, qy = py - s * ny, qz = pz - s * nz;
    const onArc = (nx !== 0 || ny !== 0 || nz !== 0) &&
      (ay * qz - az * qy) * nx + (az * qx - ax * qz) * ny + (ax * qy - ay * qx) * nz >= 0 &&
      (qy * bz - qz * by) * nx + (qz * bx - qx * bz) * ny + (qx * by - qy * bx) * nz >= 0;
    let angle: number;
    if (onArc) {
      if (Math.abs(s) > n.sine) continue;
      angle = Math.asin(Math.min(1, Math.abs(s)));
    } else {
      const dax = px - ax, day = py - ay, daz = pz - az, dbx = px - bx, dby = py - by, dbz = pz - bz;
      const nearA = dax * dax + day * day + daz * daz <= n.chord2, nearB = dbx * dbx + dby * dby + dbz * dbz <= n.chord2;
      if (!nearA && !nearB) continue;
      angle = nearA && nearB ? Math.min(angleOf(px, py, pz, ax, ay, az), angleOf(px, py, pz, bx, by, bz)) : nearA ? angleOf(px, py, pz, ax, ay, az) : angleOf(px, py, pz, bx, by, bz);
    }
    if (angle < n.angle) setNearest(n, angle);
  }
}
