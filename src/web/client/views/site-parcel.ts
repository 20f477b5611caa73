/**
 * The parcel a person gives the site report: GeoJSON pasted or read from a file, unwrapped to the
 * Polygon or MultiPolygon the API takes as `boundary`. Only the wrapping is read here: the API checks
 * the rings (closed, in range, at most 2,000 vertices) and its 422 sentence is shown beside the field.
 */
export type Boundary = { type: 'Polygon' | 'MultiPolygon'; coordinates: unknown };

const POLYGONAL = ['Polygon', 'MultiPolygon'];

const typeOf = (v: unknown): string | null => (typeof v === 'object' && v !== null && typeof (v as { type?: unknown }).type === 'string' ? (v as { type: string }).type : null);

/** The boundary in `text`, or the sentence saying why there is none. */
export function boundaryOf(text: string): { boundary: Boundary } | { problem: string } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return { problem: 'The parcel is not JSON: paste GeoJSON text, or pick a .geojson file.' };
  }
  const type = typeOf(v);
  let geometry: unknown = v;
  if (type === 'Feature') geometry = (v as { geometry?: unknown }).geometry;
  if (type === 'FeatureCollection') {
    const features = (v as { features?: unknown }).features;
    const shapes = (Array.isArray(features) ? features : []).map((f) => (f as { geometry?: unknown } | null)?.geometry).filter((g) => POLYGONAL.includes(typeOf(g) ?? ''));
    if (shapes.length !== 1) return { problem: `The parcel's FeatureCollection holds ${shapes.length} polygon features; give one (a MultiPolygon for a parcel in several pieces).` };
    geometry = shapes[0];
  }
  const kind = typeOf(geometry);
  if (!POLYGONAL.includes(kind ?? '')) {
    return { problem: `The parcel must be a GeoJSON Polygon or MultiPolygon, or a Feature or FeatureCollection holding one; this is ${kind ? `a ${kind}` : 'no GeoJSON geometry'}.` };
  }
  return { boundary: { type: kind as Boundary['type'], coordinates: (geometry as { coordinates?: unknown }).coordinates } };
}

const STORE = 'site-report-parcel';

/** A short name of a parcel's text, for the route: a new parcel is a new address, so the view redraws. */
export function parcelId(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}

/**
 * Keeps the parcel's text for this tab (sessionStorage, as the key): a route names it by its id,
 * too long for an address bar itself.
 */
export function keepParcel(text: string): string {
  const id = parcelId(text);
  sessionStorage.setItem(STORE, JSON.stringify({ id, text }));
  return id;
}

/** The text of the parcel kept as `id`, or null when this tab does not hold it. */
export function keptParcel(id: string): string | null {
  try {
    const kept = JSON.parse(sessionStorage.getItem(STORE) ?? 'null') as { id: string; text: string } | null;
    return kept && kept.id === id ? kept.text : null;
  } catch {
    return null;
  }
}
