import type { FacilityRow } from '../../src/index/model';
import { EVIDENCE_KEYS, evidenceOfStored, type Evidence } from '../../src/index/evidence';
import type { ProgramInputs } from '../../src/scoring/model';
import { CLEAN_INPUTS, facility, inputsWith } from '../helpers';
import { destination } from '../area/fixtures';

/** The test's own Earth radius (IUGG mean, in miles), as the service documents it. */
export const R_MILES = 6371.0088 / 1.609344;

const PROGRAM: ProgramInputs = {
  status: 'No Violation Identified', significant: false, qtrs_with_nc: 0, formal_actions: 0, informal_actions: 0,
  penalties_usd: 0, last_penalty_usd: 0, last_penalty_date: null, last_formal_action_date: null, history: null, qncr_codes: null,
};

/** What a generated facility is, as the test decides it (not as the service reads it). */
export type Traits = {
  snc: boolean; recentFormal: boolean; oldFormal: boolean; rcra: boolean; cwa: boolean; caa: boolean;
  /** Among RCRA facilities: a TSDF as well as a generator (else a small quantity generator only). */
  tsdf?: boolean;
  /** Among CAA facilities: a major source (else synthetic minor). */
  caaMajor?: boolean;
  /** A TRI reporter. */
  tri?: boolean;
};

/** The ECHO fields the categories read beside the score, as an exporter row of these traits has them. */
export function evidenceOf(t: Traits): Evidence {
  return {
    ...evidenceOfStored(null, new Set(EVIDENCE_KEYS)),
    rcra_universes: t.rcra ? (t.tsdf ? ['TSDF', 'LQG'] : ['SQG']) : [],
    caa_permit_types: t.caa ? (t.caaMajor ? 'Major' : 'Synthetic Minor') : '',
    tri_flag: t.tri === true,
  };
}

/** A fictitious facility at `at` with the given traits; the index's as-of date is 2026-11-01. */
export function withTraits(id: string, at: { lat: number; lng: number }, t: Traits, score = 80): FacilityRow {
  const formal = t.recentFormal ? { date_last_formal_action: '2024-06-01', formal_action_count: 1 } : t.oldFormal ? { date_last_formal_action: '2019-01-15', formal_action_count: 0 } : {};
  return facility({
    registry_id: id,
    fac_name: `SITE FIXTURE ${id} (FICTITIOUS)`,
    fac_zip: '77002',
    lat: at.lat,
    lng: at.lng,
    overall_score: score,
    active_enforcement: t.snc || t.recentFormal,
    score_inputs: inputsWith({
      snc_flag: t.snc,
      compliance_status: t.snc ? 'Significant Violation' : CLEAN_INPUTS.compliance_status,
      ...formal,
      programs: { caa: t.caa ? PROGRAM : null, cwa: t.cwa ? PROGRAM : null, rcra: t.rcra ? PROGRAM : null, sdwa: null },
    }),
    evidence: evidenceOf(t),
  });
}

/**
 * `count` facilities within `spreadMiles` of the site with random traits, a few exactly on the
 * site and a few stacked on one spot; `id0` numbers them.
 */
export function scatter(rand: () => number, site: { lat: number; lng: number }, count: number, spreadMiles: number, id0: number): { row: FacilityRow; traits: Traits }[] {
  const out: { row: FacilityRow; traits: Traits }[] = [];
  for (let i = 0; i < count; i++) {
    const r = rand();
    const at = r < 0.03 ? site : r < 0.06 && out.length ? { lat: out.at(-1)!.row.lat!, lng: out.at(-1)!.row.lng! } : destination(site.lat, site.lng, rand() * 360, spreadMiles * Math.sqrt(rand()), R_MILES);
    const e = rand();
    const traits: Traits = { snc: rand() < 0.25, recentFormal: e < 0.2, oldFormal: e >= 0.2 && e < 0.35, rcra: rand() < 0.4, cwa: rand() < 0.3, caa: rand() < 0.3 };
    Object.assign(traits, { tsdf: traits.rcra && rand() < 0.4, caaMajor: traits.caa && rand() < 0.5, tri: rand() < 0.2 });
    out.push({ row: withTraits(String(id0 + i), at, traits, [20, 55, 80, 95, 100][Math.floor(rand() * 5)]!), traits });
  }
  return out;
}

const rad = (d: number) => (d * Math.PI) / 180;

/** A point; the fixtures' facilities all have coordinates (null only satisfies the row type). */
type Point = { lat: number | null; lng: number | null };

function unit(lat: number | null, lng: number | null): [number, number, number] {
  if (lat === null || lng === null) throw new Error('a fixture facility without coordinates');
  return [Math.cos(rad(lat)) * Math.cos(rad(lng)), Math.cos(rad(lat)) * Math.sin(rad(lng)), Math.sin(rad(lat))];
}

/** Great-circle distance by the chord of unit vectors (not the haversine the service uses). */
export function chordMiles(a: Point, b: Point): number {
  const [x1, y1, z1] = unit(a.lat, a.lng);
  const [x2, y2, z2] = unit(b.lat, b.lng);
  const chord = Math.hypot(x1 - x2, y1 - y2, z1 - z2);
  return 2 * R_MILES * Math.asin(Math.min(1, chord / 2));
}

/** Initial bearing from `a` to `b`: the direction of b's vector in a's local east/north plane. */
export function enuBearing(a: { lat: number; lng: number }, b: Point): number {
  const v = unit(b.lat, b.lng);
  const east = [-Math.sin(rad(a.lng)), Math.cos(rad(a.lng)), 0];
  const north = [-Math.sin(rad(a.lat)) * Math.cos(rad(a.lng)), -Math.sin(rad(a.lat)) * Math.sin(rad(a.lng)), Math.cos(rad(a.lat))];
  const dot = (p: number[]) => p[0]! * v[0] + p[1]! * v[1] + p[2]! * v[2];
  const deg = (Math.atan2(dot(east), dot(north)) * 180) / Math.PI;
  return (deg + 360) % 360;
}

const POINTS = ['N', 'NNE', 'NE', 'ENE', 'E', 'ESE', 'SE', 'SSE', 'S', 'SSW', 'SW', 'WSW', 'W', 'WNW', 'NW', 'NNW'];

/** The 16-point name of a bearing, written out as sectors (not as the service rounds it). */
export function sectorOf(bearing: number): string {
  for (let i = 0; i < 16; i++) {
    const lo = i * 22.5 - 11.25;
    const b = bearing >= 348.75 ? bearing - 360 : bearing;
    if (b >= lo && b < lo + 22.5) return POINTS[i]!;
  }
  throw new Error(`no sector for ${bearing}`);
}

/**
 * The categories a facility belongs under on an index of exporter files, as the documentation
 * states them: RCRA universes, TRI_FLAG and CAA major sources are stored and searched exactly.
 */
export function expectedCategories(t: Traits, miles: number, d: Record<string, number>): string[] {
  const within = (k: string) => miles <= d[k]!;
  const out: string[] = [];
  // on the property (a point site: under 0.02 mi) is not adjoining it
  if (miles < 0.02) out.push('on_site');
  else if (within('adjoining')) out.push('adjoining');
  if (t.snc && within('snc')) out.push('snc');
  if (t.recentFormal && within('enforcement')) out.push('enforcement');
  if (t.rcra && t.tsdf && within('rcra_tsd')) out.push('rcra_tsd');
  if (t.rcra && within('rcra_generator')) out.push('rcra_generator');
  if (t.tri && within('tri')) out.push('tri');
  if (t.cwa && within('npdes')) out.push('npdes');
  if (t.caa && t.caaMajor && within('caa_major')) out.push('caa_major');
  return out;
}
