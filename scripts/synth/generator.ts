import { EXPORTER_COLUMNS_2025 } from '../../src/ingest/exporter-columns';
import { makeCompliance } from './compliance';
import { exporterLine, type Facility } from './exporter-row';
import { buildPlaces, pickPlace, scatter } from './geography';
import { facilityName, INDUSTRIES, streetAddress } from './names';
import { Rng } from './rng';

export type GeneratorOptions = {
  seed: string;
  rows: number;
  /** YYYY-MM-DD: every date in the file is before it, and FAC_DAYS_LAST_INSPECTION counts to it. */
  asOf: string;
  /**
   * Share of rows without coordinates (blank FAC_LAT/FAC_LONG), as EPA's file has some. Default 0: the
   * bundled sample has none, since ingest rejects such rows (`missing_coordinates`).
   */
  missingCoordinatesRate?: number;
};

const HEAVY = new Set(['324110', '325110', '331110', '221112', '322121', '336111', '562211']);
const INDUSTRY_PAIRS = INDUSTRIES.map((i) => [i, i.weight] as const);

/**
 * The fictitious exporter file, line by line (header first, no newlines): deterministic for a seed,
 * any size, nothing held beyond the current row. Registry IDs are 12 digits starting with 99, ascending.
 */
export function* exporterLines(opts: GeneratorOptions): Generator<string> {
  const rng = new Rng(`facility-score sample ${opts.seed}`);
  const extra = new Rng(`facility-score sample details ${opts.seed}`);
  const places = buildPlaces();
  const asOfMs = Date.parse(`${opts.asOf}T00:00:00Z`);
  if (!Number.isFinite(asOfMs)) throw new Error(`bad as-of date ${opts.asOf}`);
  const missing = opts.missingCoordinatesRate ?? 0;
  yield EXPORTER_COLUMNS_2025.join(',');
  let id = 9_900_000_000_00;
  for (let n = 0; n < opts.rows; n++) {
    id += rng.int(1, 600);
    const facility = makeFacility(rng, places, String(id), missing, extra);
    yield exporterLine(facility, asOfMs, rng, extra);
  }
}

/** The chance of a row without coordinates the sample was first drawn with: still drawn, so every later draw stays as it was. */
const FIRST_NO_POINT_RATE = 0.002;

/**
 * One invented facility with registry ID `id`; `missingCoordinatesRate`: the chance it has no coordinates.
 * `rng` makes the draws the sample always made, in the same order, so a seed keeps giving the same
 * facilities (IDs, names, places, base record: the ones the docs and tests name); `extra` (a stream of
 * its own) makes the draws added since, so adding one never moves the others.
 */
export function makeFacility(rng: Rng, places: ReturnType<typeof buildPlaces>, id: string, missingCoordinatesRate: number, extra: Rng): Facility {
  const industry = rng.weighted(INDUSTRY_PAIRS);
  const place = pickPlace(places, rng);
  const programs = industry.programs.split(' ');
  for (const [p, chance] of [['RCRA', 0.15], ['NPDES', 0.1], ['AIR', 0.08]] as const) if (!programs.includes(p) && rng.chance(chance)) programs.push(p);
  if (rng.chance(HEAVY.has(industry.naics) ? 0.5 : 0.01)) programs.push('TRI');
  if (rng.chance(HEAVY.has(industry.naics) ? 0.35 : 0.002)) programs.push('GHG');
  let name = facilityName(rng, rng.pick(industry.kind));
  if (rng.chance(0.02)) name = name.replace(/ (INC|LLC|CO|CORP|LP)$/, ', $1');
  else if (rng.chance(0.003)) name = name.replace(/^(\S+)/, '$1 "EAST"');
  const street = streetAddress(rng);
  const pointOnExtra = rng.chance(FIRST_NO_POINT_RATE);
  const scattered = scatter(place, pointOnExtra ? extra : rng);
  const point = extra.chance(missingCoordinatesRate) ? null : scattered;
  return {
    id,
    name,
    street,
    place,
    point,
    pointOnExtra,
    industry,
    programs,
    compliance: makeCompliance(rng, extra),
  };
}
