import { AppError } from '../errors';

/** The forms a list of facilities can be answered in (docs/api.md, "Export forms"). */
export type ExportFormat = 'json' | 'csv' | 'geojson';

const BY_PARAM: Record<string, ExportFormat> = { json: 'json', csv: 'csv', geojson: 'geojson' };
const BY_MEDIA_TYPE: Record<string, ExportFormat> = {
  'application/json': 'json',
  'text/csv': 'csv',
  'application/geo+json': 'geojson',
};
/** A wildcard picks JSON, the API's own form; listed first so it wins ties of equal quality. */
const PREFERENCE: readonly ExportFormat[] = ['json', 'csv', 'geojson'];

/**
 * The form of a list response.
 * 1. `?format=json|csv|geojson` decides when present (a link can carry it, a browser cannot set
 *    Accept); any other value is 422 VALIDATION_ERROR naming the parameter.
 * 2. Otherwise `Accept`: the supported type of highest quality (`q`); `*\/*`, `text/*` and
 *    `application/*` count for the types they cover; ties go to JSON, then CSV, then GeoJSON.
 * 3. No Accept, or an Accept naming none of the three: JSON. RFC 9110 (12.5.1) lets a server
 *    disregard Accept instead of answering 406, which the spec's error table does not have; a
 *    client that asked for XML can still read the JSON's content type.
 */
export function chooseFormat(params: URLSearchParams, accept: string | null): ExportFormat {
  const all = params.getAll('format');
  if (all.length > 1) throw new AppError('VALIDATION_ERROR', `format was given ${all.length} times; give it once`);
  if (all.length === 1) {
    const f = BY_PARAM[all[0]!.toLowerCase()];
    if (!f) throw new AppError('VALIDATION_ERROR', `format must be json, csv or geojson, got ${JSON.stringify(all[0]!.slice(0, 40))}`);
    return f;
  }
  return accept ? fromAccept(accept) : 'json';
}

function fromAccept(accept: string): ExportFormat {
  const quality = new Map<ExportFormat, number>();
  const specificity = new Map<ExportFormat, number>();
  for (const range of accept.split(',')) {
    const [type = '', ...params] = range.split(';').map((p) => p.trim().toLowerCase());
    let q = 1;
    for (const p of params) {
      const m = /^q=([01](?:\.\d{0,3})?)$/.exec(p);
      if (m) q = Number(m[1]);
    }
    for (const f of PREFERENCE) {
      const exact = Object.entries(BY_MEDIA_TYPE).find(([, v]) => v === f)![0];
      const s = type === exact ? 3 : type === `${exact.split('/')[0]}/*` ? 2 : type === '*/*' ? 1 : 0;
      // The most specific range that names a type sets its quality (RFC 9110 12.5.1), so
      // `text/csv;q=0, */*` still excludes CSV.
      if (s > (specificity.get(f) ?? 0)) {
        specificity.set(f, s);
        quality.set(f, q);
      }
    }
  }
  let best: ExportFormat = 'json';
  let bestQ = 0;
  for (const f of PREFERENCE) {
    const q = quality.get(f) ?? 0;
    if (q > bestQ) (best = f), (bestQ = q);
  }
  return best;
}
