import { cosLat, DEG, EARTH_RADIUS_MILES, haversinePre } from '../area/geo';
import { allZips } from '../address/zip-table';

type Centres = { zip: string[]; lat: Float64Array; lng: Float64Array; cos: Float64Array };
let centres: Centres | undefined;

/** The bundled ZIP table's centres (../address/zip-table.ts), by latitude: made on the first report that needs them. */
function table(): Centres {
  if (centres) return centres;
  const codes = allZips().filter((z) => Number.isFinite(z.lat) && Number.isFinite(z.lng)).sort((a, b) => a.lat - b.lat || (a.zip < b.zip ? -1 : 1));
  centres = {
    zip: codes.map((z) => z.zip),
    lat: Float64Array.from(codes, (z) => z.lat),
    lng: Float64Array.from(codes, (z) => z.lng),
    cos: Float64Array.from(codes, (z) => cosLat(z.lat)),
  };
  return centres;
}

/** First position whose latitude is at least `lat`. */
function lowerBound(lat: Float64Array, v: number): number {
  let a = 0, b = lat.length;
  while (a < b) {
    const m = (a + b) >>> 1;
    if (lat[m]! < v) a = m + 1;
    else b = m;
  }
  return a;
}

/** The ZIPs whose centre lies within `miles` of the point, nearest first, each with its distance. */
export function zipsWithin(lat: number, lng: number, miles: number): { zip: string; miles: number }[] {
  const t = table();
  const dLat = miles / EARTH_RADIUS_MILES / DEG;
  const cos = cosLat(lat);
  const out: { zip: string; miles: number }[] = [];
  for (let i = lowerBound(t.lat, lat - dLat); i < t.lat.length && t.lat[i]! <= lat + dLat; i++) {
    const d = haversinePre(lat, lng, cos, t.lat[i]!, t.lng[i]!, t.cos[i]!);
    if (d <= miles) out.push({ zip: t.zip[i]!, miles: d });
  }
  return out.sort((a, b) => a.miles - b.miles || (a.zip < b.zip ? -1 : 1));
}

/** The ZIP whose centre is nearest the point (within 50 miles), or null: the site's ZIP when none was given. */
export function nearestZip(lat: number, lng: number): { zip: string; miles: number } | null {
  for (const miles of [5, 50]) {
    const near = zipsWithin(lat, lng, miles);
    if (near.length > 0) return near[0]!;
  }
  return null;
}
