/**
 * Our wording for a value that breaks a route's schema, built from the schema itself: the
 * validator's own text ("Expected string") never reaches a client. Every message has the form
 * `<field> is required: <what>` or `<field> must be <what>, got <value>` (the message table in
 * docs/api.md; test/http/hostile-input.test.ts holds every body to it).
 */

type Schema = {
  type?: string;
  anyOf?: Schema[];
  const?: unknown;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
};

export type SchemaFailure = { path?: string; value?: unknown; schema?: Schema };

const MAX_SHOWN = 40;

/** The field as a caller wrote it: `/registry_ids/0` -> `registry_ids[0]`. */
export function fieldName(path: string | undefined): string {
  const parts = (path ?? '').split('/').filter(Boolean);
  if (parts.length === 0) return 'the request';
  return parts.map((p, i) => (/^\d+$/.test(p) ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

function range(lo: number | undefined, hi: number | undefined, unit: string): string {
  if (lo !== undefined && hi !== undefined) return ` from ${lo} to ${hi}${unit}`;
  if (lo !== undefined) return ` of at least ${lo}${unit}`;
  if (hi !== undefined) return ` of at most ${hi}${unit}`;
  return '';
}

/** What a value of `schema` is, in words: "a string of 1 to 200 characters". */
export function describeSchema(schema: Schema | undefined): string {
  if (!schema) return 'a valid value';
  const literals = schema.anyOf?.every((s) => s.const !== undefined) ? schema.anyOf.map((s) => s.const) : schema.enum;
  if (literals) return `one of ${literals.map((v) => JSON.stringify(v)).join(', ')}`;
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  switch (schema.type) {
    case 'string': {
      const len = range(schema.minLength, schema.maxLength, ' characters').replace(/^ from (\d+) to/, ' of $1 to');
      return `a string${len}`;
    }
    case 'integer':
      return `a whole number${range(schema.minimum, schema.maximum, '')}`;
    case 'number':
      return `a number${range(schema.minimum, schema.maximum, '')}`;
    case 'boolean':
      return 'true or false';
    case 'array':
      return `a list${range(schema.minItems, schema.maxItems, ' items').replace(/^ from (\d+) to/, ' of $1 to')}`;
    case 'object':
      return 'an object';
    default:
      return 'a valid value';
  }
}

/** A received value, shown short and printable (control characters escaped). */
export function showValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  const text = typeof value === 'string' ? JSON.stringify(value.length > MAX_SHOWN ? `${value.slice(0, MAX_SHOWN)}…` : value) : String(value);
  return text;
}

/** One sentence for the first failing value of a request part. */
export function validationMessage(failure: SchemaFailure | undefined): string {
  const field = fieldName(failure?.path);
  const what = describeSchema(failure?.schema);
  if (failure?.value === undefined) return `${field} is required: ${what}`;
  return `${field} must be ${what}, got ${showValue(failure.value)}`;
}
