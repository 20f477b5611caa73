import type { Database } from 'bun:sqlite';

/** The 0.2-degree square (about 14 by 12 miles at 30 degrees north) holding the most facilities. */
export type Square = { y: number; x: number; n: number };

export function densestSquare(db: Database): Square {
  return db.query('SELECT CAST(floor(lat * 5) AS INTEGER) AS y, CAST(floor(lng * 5) AS INTEGER) AS x, count(*) AS n FROM facility WHERE lat IS NOT NULL GROUP BY y, x ORDER BY n DESC LIMIT 1').get() as Square;
}

/**
 * `n` facilities' own coordinates (sites where facilities are), inside `square` when given, in a
 * pseudo-random order fixed by `seed` (the last 9 digits of the ID, scrambled): two builds, or two
 * benchmarks, get the same sites for the same seed.
 */
export function drawSites(db: Database, square: Square | null, seed: number, n: number): { registry_id: string; lat: number; lng: number }[] {
  const within = square ? `AND lat >= ${square.y / 5} AND lat < ${(square.y + 1) / 5} AND lng >= ${square.x / 5} AND lng < ${(square.x + 1) / 5}` : '';
  return db
    .query(`SELECT registry_id, lat, lng FROM facility WHERE lat IS NOT NULL ${within} ORDER BY (CAST(substr(registry_id, -9) AS INTEGER) * 7919 + ?) % 1000003, registry_id LIMIT ?`)
    .all(seed * 104729, n) as { registry_id: string; lat: number; lng: number }[];
}

/**
 * An irregular ring of `n` vertices around a site, from a generator seeded by the site's ID: at
 * evenly spaced bearings (jittered by up to a third of a step), 0.15 mile from it give or take a
 * half (three waves of random phase, and 2% per vertex): a lobed lot outline, star-shaped, so simple.
 */
export function parcelAround(s: { registry_id: string; lat: number; lng: number }, n: number) {
  let x = Number(s.registry_id.slice(-9)) || 1;
  const rand = () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const milesPerDegree = 69.05;
  const phase = [rand() * 6.3, rand() * 6.3, rand() * 6.3];
  const ring: [number, number][] = [];
  for (let i = 0; i < n; i++) {
    const angle = ((i + (rand() - 0.5) * 0.66) / n) * 2 * Math.PI;
    const miles = 0.15 * (1 + 0.25 * Math.sin(2 * angle + phase[0]!) + 0.15 * Math.sin(3 * angle + phase[1]!) + 0.1 * Math.sin(5 * angle + phase[2]!)) * (0.98 + 0.04 * rand());
    const lat = s.lat + (miles * Math.cos(angle)) / milesPerDegree;
    const lng = s.lng + (miles * Math.sin(angle)) / (milesPerDegree * Math.cos((s.lat * Math.PI) / 180));
    ring.push([Math.round(lng * 1e7) / 1e7, Math.round(lat * 1e7) / 1e7]);
  }
  ring.push(ring[0]!);
  return { type: 'Polygon', coordinates: [ring] };
}
