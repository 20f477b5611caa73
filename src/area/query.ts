import { AppError } from '../errors';
import type { RadiusQuery } from './spatial-search';
import { US_STATE_CODES } from '../shared/us-states';

export const MAX_RADIUS_MILES = 25;
export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 500;

// Plain decimal notation only: no hex (0x10), no Infinity/NaN, no blanks, which Number() would accept.
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const WHOLE = /^\d+$/;

/** The value as the caller sent it, for messages: quoted, and cut short. */
function shown(raw: string): string {
  return JSON.stringify(raw.length > 40 ? `${raw.slice(0, 40)}…` : raw);
}

/**
 * Reads the area search's query parameters strictly (docs/area-and-portfolio.md). Every problem is reported at once, each naming its
 * parameter, as one 422 VALIDATION_ERROR. Stricter than the route's schema (which documents the
 * parameters in OpenAPI): a parameter given twice, `lat=0x10` or `lat=%20` is refused here instead of
 * being silently read as a number. Parameters it does not define are ignored.
 */
export function parseAreaQuery(params: URLSearchParams): RadiusQuery {
  const problems: string[] = [];
  // Every problem names the parameter and says what it takes.
  const one = (name: string, required: boolean, what: string): string | null => {
    const all = params.getAll(name);
    if (all.length > 1) problems.push(`${name} was given ${all.length} times; give it once`);
    else if (all.length === 0) {
      if (required) problems.push(`${name} is required: ${what}`);
    } else if (all[0] === '') problems.push(`${name} must be ${what}, got an empty value`);
    else return all[0]!;
    return null;
  };
  const number = (name: string, min: number, max: number, what: string, exclusiveMin = false): number => {
    const raw = one(name, true, what);
    if (raw === null) return NaN;
    const value = DECIMAL.test(raw) ? Number(raw) : NaN;
    if (!Number.isFinite(value) || value > max || (exclusiveMin ? value <= min : value < min)) {
      problems.push(`${name} must be ${what}, got ${shown(raw)}`);
      return NaN;
    }
    return value;
  };

  const lat = number('lat', -90, 90, 'a latitude in decimal degrees from -90 to 90');
  const lng = number('lng', -180, 180, 'a longitude in decimal degrees from -180 to 180');
  const radiusMiles = number('radius_miles', 0, MAX_RADIUS_MILES, `a number of miles greater than 0 and at most ${MAX_RADIUS_MILES}`, true);

  let limit = DEFAULT_LIMIT;
  const rawLimit = one('limit', false, `a whole number from 1 to ${MAX_LIMIT}`);
  if (rawLimit !== null) {
    limit = WHOLE.test(rawLimit) ? Number(rawLimit) : NaN;
    if (!(limit >= 1 && limit <= MAX_LIMIT)) problems.push(`limit must be a whole number from 1 to ${MAX_LIMIT}, got ${shown(rawLimit)}`);
  }

  const rawSort = one('sort', false, '"distance" or "score"');
  if (rawSort !== null && rawSort !== 'distance' && rawSort !== 'score') {
    problems.push(`sort must be "distance" or "score", got ${shown(rawSort)}`);
  }

  const rawState = one('state', false, 'a 2-letter US state or territory code such as TX');
  const state = rawState === null ? null : rawState.toUpperCase();
  if (rawState !== null && !US_STATE_CODES.has(state!)) {
    problems.push(`state must be a 2-letter US state or territory code such as TX, got ${shown(rawState)}`);
  }

  const rawActive = one('active_enforcement', false, 'true or false');
  if (rawActive !== null && rawActive !== 'true' && rawActive !== 'false') {
    problems.push(`active_enforcement must be true or false, got ${shown(rawActive)}`);
  }

  if (problems.length > 0) throw new AppError('VALIDATION_ERROR', problems.join('; '));
  return {
    lat,
    lng,
    radiusMiles,
    limit,
    sort: rawSort === 'score' ? 'score' : 'distance',
    state,
    activeEnforcement: rawActive === null ? null : rawActive === 'true',
  };
}
