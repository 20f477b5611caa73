import type { OpenAPIV3 } from 'openapi-types';
import { FORMATS, type ListForm } from './format';
import type { Location } from './geojson';
import { lateBody } from '../wire/late-body';
import type { DatasetMeta } from '../shared/envelope';

/** A list of facilities to export: the JSON form's items, and where each facility is. */
export type ExportList = {
  /** File name without extension; anything but letters, digits, `.`, `_` and `-` becomes `-`. */
  name: string;
  items: readonly Record<string, unknown>[];
  /** Locations by registry ID (every item's ID must be present). */
  locations: Map<string, Location>;
  /** Header of an empty CSV (the item fields). */
  columns: readonly string[];
  /** The dataset the list was made from: GeoJSON's `metadata`, the file's headers and name. */
  dataset: DatasetMeta;
};

/**
 * The CSV or GeoJSON text of a list. Items gain `location` ({lat, lng}), the facility record's
 * field: CSV flattens it into `location.lat`/`location.lng` columns, GeoJSON makes it
 * the geometry.
 */
export function exportBody(format: ListForm, list: Omit<ExportList, 'name'>): string {
  const located = list.items.map((item) => {
    const location = list.locations.get(item.registry_id as string);
    // Items come from this index; a facility without a row is a bug, not a client error.
    if (location === undefined) throw new Error(`no location for ${String(item.registry_id)}`);
    return { ...item, location };
  });
  return FORMATS[format].render(located, list.columns, list.dataset);
}

/**
 * The CSV or GeoJSON form of a list, as an attachment (`exportBody`). The headers set on the
 * context so far (quota, request id, CORS) are moved into the Response, as jsonResponse does, and
 * a body over PLAIN_BODY_MAX goes out in one write (src/wire/late-body.ts).
 */
export function exportResponse(
  format: ListForm,
  list: ExportList,
  set: { headers: Record<string, unknown> },
  headers: Record<string, string> = {},
): Response {
  return exportFileResponse(format, list.name, list.dataset, exportBody(format, list), set, headers);
}

/**
 * An export's body already written (`exportBody`, e.g. on a render worker) as the attachment
 * `exportResponse` sends. A file has no envelope, so its provenance is in headers (X-Dataset-As-Of,
 * X-Dataset-Fictitious, X-Score-Method) and its name ends with the as-of date.
 */
export function exportFileResponse(
  format: ListForm,
  name: string,
  dataset: DatasetMeta,
  body: string | Uint8Array,
  set: { headers: Record<string, unknown> },
  headers: Record<string, string> = {},
): Response {
  const file = `${name.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 80)}_as-of-${dataset.as_of.replace(/[^0-9-]/g, '')}.${FORMATS[format].extension}`;
  const before = set.headers as Record<string, string>;
  set.headers = {};
  return new Response(lateBody(body), {
    headers: {
      ...before,
      ...headers,
      'content-type': FORMATS[format].contentType,
      'content-disposition': `attachment; filename="${file}"`,
      'x-dataset-as-of': dataset.as_of,
      'x-dataset-fictitious': String(dataset.fictitious),
      'x-score-method': dataset.score_method,
      // The form follows Accept; a keyed answer also follows Origin (CORS), and this Vary replaces the one set before.
      vary: 'Accept, Origin',
    },
  });
}

/**
 * A list endpoint's outcomes in OpenAPI: the 200 in its three forms (the JSON envelope, CSV,
 * GeoJSON), and the route's derived error responses (`apiKeyErrors`), always JSON envelopes.
 * Elysia would describe the 200 as JSON only, so the route documents these instead.
 */
export function listResponses(
  json: unknown,
  what: string,
  errors: Record<number, { description?: string }>,
  fileHeaders: Record<string, OpenAPIV3.HeaderObject> = {},
): OpenAPIV3.ResponsesObject {
  return {
    200: {
      description:
        `${what}. JSON by default; CSV (\`Accept: text/csv\` or \`?format=csv\`) or GeoJSON (\`Accept: application/geo+json\` or ` +
        '`?format=geojson`) as an attachment, one row/feature per facility with the same fields plus `location`, its dataset in headers ' +
        '(and GeoJSON\'s `metadata`) (docs/api.md, "Export forms").',
      headers: {
        'Content-Disposition': { description: 'CSV and GeoJSON only: attachment; filename="<list>_as-of-<YYYY-MM-DD>.csv|.geojson"', schema: { type: 'string' } },
        'X-Dataset-As-Of': { description: 'CSV and GeoJSON only: the date the data describes (YYYY-MM-DD)', schema: { type: 'string', format: 'date' } },
        'X-Dataset-Fictitious': { description: 'CSV and GeoJSON only: `true` when the data is an invented sample, not EPA data', schema: { type: 'string', enum: ['true', 'false'] } },
        'X-Score-Method': { description: 'CSV and GeoJSON only: the facility-score method that computed the scores', schema: { type: 'string' } },
        ...fileHeaders,
      },
      content: {
        [FORMATS.json.mediaType]: { schema: json as OpenAPIV3.SchemaObject },
        [FORMATS.csv.mediaType]: { schema: { type: 'string', description: 'RFC 4180, UTF-8, header row, CRLF; nested fields as dotted columns; a list as one plain-text cell, items joined with "; "' } },
        [FORMATS.geojson.mediaType]: { schema: { type: 'object', description: 'RFC 7946 FeatureCollection of Point features [lng, lat]; properties = item fields; `metadata` = the dataset (as meta.dataset)' } },
      },
    },
    ...Object.fromEntries(
      Object.entries(errors).map(([status, schema]) => [status, { description: schema.description ?? 'Error envelope', content: { 'application/json': { schema: schema as OpenAPIV3.SchemaObject } } }]),
    ),
  };
}
