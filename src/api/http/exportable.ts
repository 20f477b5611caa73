import { inputCheck, type InputCheck } from './api-key-auth';
import type { ErrorCode } from '../../errors';
import type { Account } from '../../state/model';
import { chooseFormat, type ExportFormat } from '../../exports/format';

/** A list route's checked input and the form its answer is wanted in. */
export type Exportable<I> = { value: I; format: ExportFormat };

/**
 * The pipeline's input step of a list route (area, portfolio, search): the route's own check,
 * then the response form (format.ts). Both run after authentication and before the call is
 * counted, so a bad `format` is a 422 that is never billed, like any other bad parameter.
 */
export function exportableInput<I>(
  codes: readonly ErrorCode[],
  check: (ctx: { request: Request; body: unknown; caller: Account }) => I,
): InputCheck<Exportable<I>> {
  const all: ErrorCode[] = codes.includes('VALIDATION_ERROR') ? [...codes] : [...codes, 'VALIDATION_ERROR'];
  return inputCheck(all, (ctx) => {
    const value = check(ctx);
    return { value, format: chooseFormat(new URL(ctx.request.url).searchParams, ctx.request.headers.get('accept')) };
  });
}
