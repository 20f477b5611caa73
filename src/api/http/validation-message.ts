/**
 * Our wording for a value that breaks a route's schema, built from the schema itself: the
 * validator's own text ("Expected string") never reaches a client. Every message has the form
 * `<field> is required: <what>` or `<field> must be <what>, got <value>` (the message table in
 * docs/api.md; test/http/hostile-input.test.ts holds every body to it).
 */

type Schema = {
  type?: string;
  format?: string;
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
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

/** The string patterns of the API's schemas, in words (a pattern itself tells a caller little). */
const PATTERNS: Record<string, string> = {
  '^[0-9]{1,15}$': 'a registry ID of 1 to 15 digits',
  '^[0-9]{12}$': 'an EPA Registry ID of 12 digits',
  '^wl_[0-9a-f]{16}$': 'a watchlist id (wl_ and 16 hex digits)',
  '^msg_[0-9a-f]{32}$': 'an event id (msg_ and 32 hex digits)',
};
const FORMATS: Record<string, string> = { date: 'a calendar date YYYY-MM-DD', 'date-time': 'an ISO 8601 date-time', email: 'an email address', uri: 'a URL' };

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
  if (schema.anyOf) {
    // Elysia's integer of a query or path: [the integer's text, the integer]; its bounds sit on the union.
    const number = schema.anyOf.find((s) => s.type === 'integer' || s.type === 'number');
    if (number && schema.anyOf.every((s) => s === number || (s.type === 'string' && (s.format === 'integer' || s.format === 'numeric')))) {
      return describeSchema({ ...number, minimum: schema.minimum ?? number.minimum, maximum: schema.maximum ?? number.maximum });
    }
    const tags = schema.anyOf.map((s) => s.properties?.type?.const);
    if (tags.every((tag) => tag !== undefined)) return `an object whose type is one of ${tags.map((tag) => JSON.stringify(tag)).join(', ')}`;
    return [...new Set(schema.anyOf.map(describeSchema))].join(' or ');
  }
  switch (schema.type) {
    case 'string': {
      if (schema.pattern !== undefined && PATTERNS[schema.pattern]) return PATTERNS[schema.pattern]!;
      if (schema.format !== undefined && FORMATS[schema.format]) return FORMATS[schema.format]!;
      const len = range(schema.minLength, schema.maxLength, ' characters').replace(/^ from (\d+) to/, ' of $1 to');
      return `a string${len}${schema.pattern !== undefined ? ` matching ${schema.pattern}` : ''}`;
    }
    case 'integer':
      return `a whole number${range(schema.minimum, schema.maximum, '')}`;
    case 'number':
      return `a number${range(schema.minimum, schema.maximum, '')}`;
    case 'boolean':
      return 'true or false';
    case 'array':
      return `a list${range(schema.minItems, schema.maxItems, ' items').replace(/^ from (\d+) to/, ' of $1 to')}`;
    case 'object': {
      const keys = Object.keys(schema.properties ?? {});
      return keys.length > 0 ? `an object with ${keys.join(', ')}` : 'an object';
    }
    case 'null':
      return 'null';
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

/**
 * A failure on a union of objects told apart by a constant `type` (a watchlist's `rule`), moved to
 * what is wrong inside the member the value names: `rule.min_points is required: a whole number
 * from 1 to 100`, or `rule.type must be one of "any_change", ...` when it names none.
 */
function narrowed(failure: SchemaFailure): SchemaFailure {
  const value = failure.value;
  if (!failure.schema?.anyOf || typeof value !== 'object' || value === null || Array.isArray(value)) return failure;
  // An object cannot be the union's null (`rule: null` removes the rule): look among the objects.
  const members = objectMembers(failure.schema);
  const tags = members.map((m) => m.properties?.type?.const);
  if (members.length === 0 || tags.some((tag) => tag === undefined)) return failure;
  const given = (value as Record<string, unknown>).type;
  const member = members[tags.indexOf(given)];
  if (!member) return { path: `${failure.path ?? ''}/type`, value: given, schema: { anyOf: tags.map((tag) => ({ const: tag })) } };
  for (const key of member.required ?? []) {
    if ((value as Record<string, unknown>)[key] === undefined) return { path: `${failure.path ?? ''}/${key}`, schema: member.properties?.[key] };
  }
  for (const [key, schema] of Object.entries(member.properties ?? {})) {
    const v = (value as Record<string, unknown>)[key];
    if (v !== undefined && !fits(schema, v)) return { path: `${failure.path ?? ''}/${key}`, value: v, schema };
  }
  return failure;
}

/** The object members of a union, nested unions flattened. */
function objectMembers(schema: Schema): Schema[] {
  return schema.anyOf ? schema.anyOf.flatMap(objectMembers) : schema.type === 'object' ? [schema] : [];
}

/** Whether a value meets a simple (scalar) schema; anything richer counts as met. */
function fits(schema: Schema, v: unknown): boolean {
  if (schema.const !== undefined) return v === schema.const;
  if (schema.anyOf) return schema.anyOf.some((s) => fits({ ...s, minimum: schema.minimum ?? s.minimum, maximum: schema.maximum ?? s.maximum }, v));
  switch (schema.type) {
    case 'integer':
    case 'number':
      return typeof v === 'number' && (schema.type === 'number' || Number.isInteger(v)) && !(v < (schema.minimum ?? -Infinity)) && !(v > (schema.maximum ?? Infinity));
    case 'string':
      return typeof v === 'string' && !(v.length < (schema.minLength ?? 0)) && !(v.length > (schema.maxLength ?? Infinity)) && schema.format !== 'integer';
    case 'boolean':
      return typeof v === 'boolean';
    default:
      return true;
  }
}

/** One sentence for the first failing value of a request part. */
export function validationMessage(failure: SchemaFailure | undefined): string {
  const f = failure ? narrowed(failure) : undefined;
  const field = fieldName(f?.path);
  const what = describeSchema(f?.schema);
  if (f?.value === undefined) return `${field} is required: ${what}`;
  return `${field} must be ${what}, got ${showValue(f.value)}`;
}
