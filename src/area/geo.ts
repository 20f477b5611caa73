/**
 * Great-circle geometry for the radius search. One distance function decides every inclusion and
 * every ordering, in the fast path and in the brute-force reference alike, so the two agree to the bit.
 */

/** Mean Earth radius (IUGG R1 = 6,371.0088 km) in statute miles. */
export const EARTH_RADIUS_MILES = 6371.0088 / 1.609344;

export const DEG = Math.PI / 180;

/** cos(latitude) as the distance function uses it; precomputed per facility by the spatial index. */
export function cosLat(latDeg: number): number {
  return Math.cos(latDeg * DEG);
}

/**
 * Haversine distance in miles between a query point (lat1, lng1, cos1 = cosLat(lat1)) and a facility
 * (lat2, lng2, cos2 = cosLat(lat2)). Taking the cosines as arguments lets the index precompute them
 * while staying bit-identical to `haversineMiles`.
 */
export function haversinePre(lat1: number, lng1: number, cos1: number, lat2: number, lng2: number, cos2: number): number {
  const s1 = Math.sin((lat2 - lat1) * DEG * 0.5);
  const s2 = Math.sin((lng2 - lng1) * DEG * 0.5);
  const a = s1 * s1 + cos1 * cos2 * s2 * s2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.sqrt(a < 1 ? a : 1));
}

/** Haversine distance in miles. Longitudes need no wrapping: sin² of the half difference is 2π-periodic. */
export function haversineMiles(lat1: number, lng1: number, lat2: number, lng2: number): number {
  return haversinePre(lat1, lng1, cosLat(lat1), lat2, lng2, cosLat(lat2));
}

/**
 * Upper bound, in miles, on the distance from any H3 cell's centre to any point of that cell at
 * resolution `res`. H3 lays a planar hexagon grid on each icosahedron face through a gnomonic
 * projection; the inverse projection never stretches distances (its scale factors are cos²θ and
 * cosθ), so no cell is larger on the sphere than its planar hexagon, whose circumradius is
 * RES0_U_GNOMONIC / √3 / √7^res (H3's own constants). test/area/geometry.test.ts samples cells
 * against it: none exceeds it. A relative 1e-6 covers
 * floating-point noise.
 */
export function cellRadiusBoundMiles(res: number): number {
  const RES0_U_GNOMONIC = 0.38196601125010500003;
  return (RES0_U_GNOMONIC / Math.sqrt(3)) * Math.pow(1 / Math.sqrt(7), res) * EARTH_RADIUS_MILES * (1 + 1e-6);
}

/** Slack for floating-point noise in lower bounds (miles; about 2 mm), so pruning is never too eager. */
export const LB_EPSILON_MILES = 1e-6;
