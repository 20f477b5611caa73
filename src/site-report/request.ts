import { AppError } from '../errors';
import { namedItems, problemsMessage } from '../shared/problems';
import { DISTANCE_KEYS, MAX_SEARCH_MILES, defaultDistances, type CategoryKey } from './categories';
import { MAX_BOUNDARY_VERTICES } from './boundary';

/** A site report request, checked. */
export type SiteRequest = {
  point: { lat: number; lng: number } | null;
  address: string | null;
  /** ZIP5 when given. */
  zip: string | null;
  name: string | null;
  distances: Record<CategoryKey, number>;
  /** The parcel as given (GeoJSON), checked, or null. */
  boundary: SiteBoundary | null;
};

export type SiteBoundary = { type: 'Polygon'; coordinates: number[][][] } | { type: 'MultiPolygon'; coordinates: number[][][][] };

export const MAX_TEXT_CHARS = 200;
const FIELDS = ['lat', 'lng', 'address', 'zip', 'name', 'search_distances', 'boundary'];
const ZIP = /^(\d{5})(?:-\d{4})?$/;

function kindOf(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : `a ${typeof v}`;
}

function shown(v: unknown): string {
  const text = typeof v === 'string' ? v : JSON.stringify(v) ?? String(v);
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}

/**
 * Reads the body of `POST /api/v1/site-report` strictly. Every problem names its field; a body of
 * the wrong shape (not an object, an unknown field, a value of the wrong JSON type, no location at
 * all) is 400 INVALID_BODY, a value out of range is 422 VALIDATION_ERROR. All problems of the
 * first kind found are reported at once.
 */
export function checkSiteRequest(body: unknown): SiteRequest {
  if (body instanceof AppError) throw body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new AppError('INVALID_BODY', `The body must be a JSON object like {"lat": 29.76, "lng": -95.37} or {"address": "..."}, got ${kindOf(body)}`);
  }
  const b = body as Record<string, unknown>;
  const shape: string[] = [];
  const range: string[] = [];
  const unknown = Object.keys(b).filter((k) => !FIELDS.includes(k));
  if (unknown.length > 0) shape.push(`unknown ${unknown.length === 1 ? 'field' : 'fields'} ${namedItems(unknown.map((k) => JSON.stringify(k.slice(0, 40))))}; the fields are ${FIELDS.join(', ')}`);

  // each reader records its problem and answers null, so every field is checked in one pass
  const number = (name: string, v: unknown, ok: (n: number) => boolean, what: string): number | null => {
    if (v === undefined) return null;
    if (typeof v !== 'number') {
      shape.push(`${name} must be a number, got ${kindOf(v)}`);
      return null;
    }
    if (!Number.isFinite(v) || !ok(v)) {
      range.push(`${name} must be ${what}, got ${v}`);
      return null;
    }
    return v;
  };
  const text = (name: string, v: unknown): string | null => {
    if (v === undefined) return null;
    if (typeof v !== 'string') {
      shape.push(`${name} must be a string, got ${kindOf(v)}`);
      return null;
    }
    const problem = v.trim() === '' ? `${name} must not be empty` : v.length > MAX_TEXT_CHARS ? `${name} must be at most ${MAX_TEXT_CHARS} characters, got ${v.length}` : null;
    if (problem) range.push(problem);
    return problem ? null : v.trim();
  };

  const lat = number('lat', b.lat, (n) => n >= -90 && n <= 90, 'a latitude in decimal degrees from -90 to 90');
  const lng = number('lng', b.lng, (n) => n >= -180 && n <= 180, 'a longitude in decimal degrees from -180 to 180');
  if ((b.lat === undefined) !== (b.lng === undefined)) shape.push(b.lat === undefined ? 'lat is required with lng' : 'lng is required with lat');
  const address = text('address', b.address);
  if (b.lat === undefined && b.lng === undefined && b.address === undefined && b.boundary === undefined) shape.push('the site is missing: give lat and lng, address, or boundary');
  const rawZip = text('zip', b.zip);
  const zip = rawZip === null ? null : (ZIP.exec(rawZip)?.[1] ?? null);
  if (rawZip !== null && zip === null) range.push(`zip must be a 5-digit ZIP code (or ZIP+4), got ${shown(rawZip)}`);
  const name = text('name', b.name);

  const distances = defaultDistances();
  const d = b.search_distances;
  if (d !== undefined) {
    if (typeof d !== 'object' || d === null || Array.isArray(d)) shape.push(`search_distances must be an object of category: miles, got ${kindOf(d)}`);
    else {
      for (const [k, v] of Object.entries(d as Record<string, unknown>)) {
        if (!(DISTANCE_KEYS as readonly string[]).includes(k)) {
          range.push(k === 'on_site' ? 'search_distances.on_site is not a distance: on site is inside the boundary, or within 0.02 mi of a point site' : `search_distances.${k.slice(0, 40)} is not a category; the categories are ${DISTANCE_KEYS.join(', ')}`);
          continue;
        }
        const miles = number(`search_distances.${k}`, v, (n) => n > 0 && n <= MAX_SEARCH_MILES, `a distance in miles greater than 0 and at most ${MAX_SEARCH_MILES}`);
        if (miles !== null) distances[k as CategoryKey] = miles;
      }
    }
  }

  let boundary: SiteBoundary | null = null;
  if (b.boundary !== undefined) {
    const problem = boundaryProblem(b.boundary);
    if (problem) range.push(`boundary ${problem}`);
    else boundary = b.boundary as SiteBoundary;
  }

  if (shape.length > 0) throw new AppError('INVALID_BODY', problemsMessage(shape));
  if (range.length > 0) throw new AppError('VALIDATION_ERROR', problemsMessage(range));
  return { point: lat !== null && lng !== null ? { lat, lng } : null, address, zip, name, distances, boundary };
}

/** The polygons of a checked boundary, each a list of rings of [lng, lat]. */
export function polygonsOf(b: SiteBoundary): number[][][][] {
  return b.type === 'Polygon' ? [b.coordinates] : b.coordinates;
}

/**
 * What is wrong with a `boundary`, or null: a GeoJSON Polygon or MultiPolygon (no other member but
 * `type` and `coordinates`; RFC 7946 lets `bbox` be), WGS84 positions [lng, lat] (a third value, the
 * altitude, is allowed and ignored), every ring closed with at least 4 positions, at most
 * MAX_BOUNDARY_VERTICES vertices in all.
 */
function boundaryProblem(v: unknown): string | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return `must be a GeoJSON Polygon or MultiPolygon object, got ${kindOf(v)}`;
  const o = v as Record<string, unknown>;
  const extra = Object.keys(o).find((k) => k !== 'type' && k !== 'coordinates' && k !== 'bbox');
  if (extra !== undefined) return `has a member ${JSON.stringify(extra.slice(0, 40))}: a geometry has only type and coordinates`;
  if (o.type !== 'Polygon' && o.type !== 'MultiPolygon') return `type must be "Polygon" or "MultiPolygon", got ${shown(o.type)}`;
  const polygons = o.type === 'Polygon' ? [o.coordinates] : o.coordinates;
  if (!Array.isArray(polygons) || polygons.length === 0) return 'coordinates must be a non-empty array';
  let vertices = 0;
  for (const [pi, rings] of polygons.entries()) {
    if (!Array.isArray(rings) || rings.length === 0) return `coordinates${o.type === 'MultiPolygon' ? `[${pi}]` : ''} must be a non-empty array of rings`;
    for (const [ri, ring] of rings.entries()) {
      const where = `coordinates${o.type === 'MultiPolygon' ? `[${pi}]` : ''}[${ri}]`;
      if (!Array.isArray(ring) || ring.length < 4) return `${where} must be a ring of at least 4 positions (the first repeated last)`;
      for (const [k, p] of ring.entries()) {
        const ok = Array.isArray(p) && (p.length === 2 || p.length === 3) && p.every((x) => typeof x === 'number' && Number.isFinite(x));
        if (!ok || p[0] < -180 || p[0] > 180 || p[1] < -90 || p[1] > 90) return `${where}[${k}] must be a position [longitude, latitude] in WGS84 degrees, got ${shown(p)}`;
      }
      const [first, last] = [ring[0] as number[], ring[ring.length - 1] as number[]];
      if (first[0] !== last[0] || first[1] !== last[1]) return `${where} is not closed: its last position must repeat its first`;
      vertices += ring.length - 1;
    }
  }
  if (vertices > MAX_BOUNDARY_VERTICES) return `has ${vertices} vertices, more than ${MAX_BOUNDARY_VERTICES}`;
  return null;
}
