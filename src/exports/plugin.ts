import { Elysia } from 'elysia';
import { chooseFormat, type ExportFormat } from './format';

const formats = new WeakMap<Request, ExportFormat>();

/**
 * `exportable: true` on a list route reads the response form (format.ts). Listed after `apiKey`
 * and the route's own query check, so a bad `format` is a 422 after authentication and before the
 * call is counted, like every other bad parameter.
 */
export const exportable = new Elysia({ name: 'exportable' }).macro({
  exportable: (_on: boolean) => ({
    transform({ request }) {
      formats.set(request, chooseFormat(new URL(request.url).searchParams, request.headers.get('accept')));
    },
  }),
});

/** The form chosen for this request (JSON when the route is not exportable). */
export function formatOf(request: Request): ExportFormat {
  return formats.get(request) ?? 'json';
}
