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
