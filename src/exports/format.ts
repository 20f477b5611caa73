import { AppError } from '../errors';
import { toCsv } from './csv';
import { toGeoJson, type Location } from './geojson';
import type { DatasetMeta } from '../shared/envelope';

type Located = Record<string, unknown> & { location: Location };

/**
 * Every form a route may answer in, declared once: its media type (what `Accept` and OpenAPI name),
 * the Content-Type sent, the file extension of an attachment and which renderer makes it. `envelope`
 * is the route's own JSON envelope; `list` the facilities of a list, rendered here
 * (src/exports/response.ts); `document` a PDF the route renders (src/reports, src/site-report).
 */
export const FORMATS = {
  json: { mediaType: 'application/json', contentType: 'application/json', extension: 'json', renderer: 'envelope' },
  csv: {
    mediaType: 'text/csv',
    contentType: 'text/csv; charset=utf-8; header=present',
    extension: 'csv',
    renderer: 'list',
    render: (items: readonly Located[], columns: readonly string[], _dataset: DatasetMeta) => toCsv(items, [...columns, 'location.lat', 'location.lng']),
  },
  geojson: {
    mediaType: 'application/geo+json',
    contentType: 'application/geo+json',
    extension: 'geojson',
    renderer: 'list',
    render: (items: readonly Located[], _columns: readonly string[], dataset: DatasetMeta) => toGeoJson(items, (item) => item.location as Location, dataset),
  },
  pdf: { mediaType: 'application/pdf', contentType: 'application/pdf', extension: 'pdf', renderer: 'document' },
} as const;

/** Every form a route may offer. */
export type ResponseForm = keyof typeof FORMATS;
/** The forms a list of facilities can be answered in (docs/api.md, "Export forms"). */
export type ExportFormat = 'json' | 'csv' | 'geojson';
/** The forms rendered from a list of facilities. */
export type ListForm = { [F in ResponseForm]: (typeof FORMATS)[F]['renderer'] extends 'list' ? F : never }[ResponseForm];

export const isListForm = (f: ResponseForm): f is ListForm => FORMATS[f].renderer === 'list';

/** A wildcard picks JSON, the API's own form; listed first so it wins ties of equal quality. */
const PREFERENCE = (Object.keys(FORMATS) as ResponseForm[]).filter((f): f is ExportFormat => FORMATS[f].renderer !== 'document');

/**
 * The form of a list response.
 * 1. `?format=json|csv|geojson` decides when present (a link can carry it, a browser cannot set
 *    Accept); any other value is 422 VALIDATION_ERROR naming the parameter.
 * 2. Otherwise `Accept`: the supported type of highest quality (`q`); `*\/*`, `text/*` and
 *    `application/*` count for the types they cover; ties go to JSON, then CSV, then GeoJSON.
 * 3. No Accept, or an Accept naming none of the three: JSON. RFC 9110 (12.5.1) lets a server
 *    disregard Accept instead of answering 406, which our closed set of error codes does not have; a
 *    client that asked for XML can still read the JSON's content type.
 */
export function chooseFormat(params: URLSearchParams, accept: string | null): ExportFormat {
  return chooseForm(params, accept, PREFERENCE);
}

/** `chooseFormat` over the forms a route offers (`forms`, JSON first: the default and the winner of ties). */
export function chooseForm<F extends ResponseForm>(params: URLSearchParams, accept: string | null, forms: readonly F[]): F {
  const all = params.getAll('format');
  if (all.length > 1) throw new AppError('VALIDATION_ERROR', `format was given ${all.length} times; give it once`);
  if (all.length === 1) {
    const f = forms.find((form) => form === all[0]!.toLowerCase());
    if (!f) throw new AppError('VALIDATION_ERROR', `format must be ${forms.slice(0, -1).join(', ')} or ${forms.at(-1)}, got ${JSON.stringify(all[0]!.slice(0, 40))}`);
    return f;
  }
  return accept ? fromAccept(accept, forms) : forms[0]!;
}

function fromAccept<F extends ResponseForm>(accept: string, forms: readonly F[]): F {
  const quality = new Map<F, number>();
  const specificity = new Map<F, number>();
  for (const range of accept.split(',')) {
    const [type = '', ...params] = range.split(';').map((p) => p.trim().toLowerCase());
    let q = 1;
    for (const p of params) {
      const m = /^q=([01](?:\.\d{0,3})?)$/.exec(p);
      if (m) q = Number(m[1]);
    }
    for (const f of forms) {
      const exact = FORMATS[f].mediaType;
      const s = type === exact ? 3 : type === `${exact.split('/')[0]}/*` ? 2 : type === '*/*' ? 1 : 0;
      // The most specific range that names a type sets its quality (RFC 9110 12.5.1), so
      // `text/csv;q=0, */*` still excludes CSV.
      if (s > (specificity.get(f) ?? 0)) {
        specificity.set(f, s);
        quality.set(f, q);
      }
    }
  }
  let best: F = forms[0]!;
  let bestQ = 0;
  for (const f of forms) {
    const q = quality.get(f) ?? 0;
    if (q > bestQ) (best = f), (bestQ = q);
  }
  return best;
}
