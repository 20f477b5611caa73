import { FORMATS, isListForm, type ResponseForm } from '../../exports/format';
import { exportResponse, type ExportList } from '../../exports/response';

type Set = { headers: Record<string, unknown> };

/** What a route gives for each kind of renderer its forms use (src/exports/format.ts FORMATS). */
export type Answers<J, D> = {
  /** The JSON envelope. */
  envelope: () => J;
  /** The facilities of a list, for the list forms (CSV, GeoJSON), with the route's own headers. */
  list: () => ExportList & { headers?: Record<string, string> };
  /** The PDF document, for a route that offers one. */
  document?: () => D;
};

/** The answer in the chosen form: one switch over the registry for every route that offers forms. */
export function answerIn<J, D = never>(format: ResponseForm, set: Set, answers: Answers<J, D>): J | D | Response {
  if (isListForm(format)) {
    const { headers, ...list } = answers.list();
    return exportResponse(format, list, set, headers);
  }
  const renderer = FORMATS[format].renderer;
  if (renderer === 'document' && answers.document) return answers.document();
  return answers.envelope();
}
