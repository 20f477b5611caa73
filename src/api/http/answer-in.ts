import { FORMATS, isListForm, type ListForm, type ResponseForm } from '../../exports/format';
import { exportFileResponse, exportResponse, type ExportList } from '../../exports/response';
import type { DatasetMeta } from '../../shared/envelope';

type Set = { headers: Record<string, unknown> };

/** A list already rendered elsewhere (on a render worker): its file's text and name. */
export type RenderedList = { name: string; dataset: DatasetMeta; body: string | Uint8Array; headers?: Record<string, string> };

/** What a route gives for each kind of renderer its forms use (src/exports/format.ts FORMATS). */
export type Answers<J, D> = {
  /** The JSON envelope. */
  envelope: () => J;
  /** The facilities of a list, for the list forms (CSV, GeoJSON), with the route's own headers; or the list rendered elsewhere. */
  list: (format: ListForm) => (ExportList & { headers?: Record<string, string> }) | Promise<RenderedList>;
  /** The PDF document, for a route that offers one. */
  document?: () => D;
};

/** The answer in the chosen form: one switch over the registry for every route that offers forms. */
export function answerIn<J, D = never>(format: ResponseForm, set: Set, answers: Answers<J, D>): J | D | Response | Promise<Response> {
  if (isListForm(format)) {
    const list = answers.list(format);
    if (list instanceof Promise) return list.then(({ name, dataset, body, headers }) => exportFileResponse(format, name, dataset, body, set, headers));
    const { headers, ...rest } = list;
    return exportResponse(format, rest, set, headers);
  }
  const renderer = FORMATS[format].renderer;
  if (renderer === 'document' && answers.document) return answers.document();
  return answers.envelope();
}
