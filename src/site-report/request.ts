import { AppError } from '../errors';
import { namedItems, problemsMessage } from '../shared/problems';
import { CATEGORY_KEYS, MAX_SEARCH_MILES, defaultDistances, type CategoryKey } from './categories';

/** A site report request, checked. */
export type SiteRequest = {
  point: { lat: number; lng: number } | null;
  address: string | null;
  /** ZIP5 when given. */
  zip: string | null;
  name: string | null;
  distances: Record<CategoryKey, number>;
};

export const MAX_TEXT_CHARS = 200;
const FIELDS = ['lat', 'lng', 'address', 'zip', 'name', 'search_distances'];
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
  if (b.lat === undefined && b.lng === undefined && b.address === undefined) shape.push('the site is missing: give lat and lng, or address');
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
        if (!(CATEGORY_KEYS as readonly string[]).includes(k)) {
          range.push(`search_distances.${k.slice(0, 40)} is not a category; the categories are ${CATEGORY_KEYS.join(', ')}`);
          continue;
        }
        const miles = number(`search_distances.${k}`, v, (n) => n > 0 && n <= MAX_SEARCH_MILES, `a distance in miles greater than 0 and at most ${MAX_SEARCH_MILES}`);
        if (miles !== null) distances[k as CategoryKey] = miles;
      }
    }
  }

  if (shape.length > 0) throw new AppError('INVALID_BODY', problemsMessage(shape));
  if (range.length > 0) throw new AppError('VALIDATION_ERROR', problemsMessage(range));
  return { point: lat !== null && lng !== null ? { lat, lng } : null, address, zip, name, distances };
}
