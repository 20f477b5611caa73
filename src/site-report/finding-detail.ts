import { t, type Static } from '../shared/typebox';
import type { SpatialIndex } from '../area/spatial-index';
import { declaredReader, programIdsReader } from '../index/declared-columns';

export { quarterBefore } from '../index/declared-columns';

const Ids = (column: string) => t.Array(t.String(), { description: `${column}: empty when the facility is not in the program or the source has no such column` });

/** What a reader needs to pull a finding's file from the program's own system (docs/site-report.md, "Findings"). */
export const FindingDetail = {
  program_ids: t.Object(
    { air: Ids('AIR_IDS'), npdes: Ids('NPDES_IDS'), rcra: Ids('RCRA_IDS'), sdwa: Ids('SDWA_IDS'), tri: Ids('TRI_IDS') },
    { description: 'Program system IDs, as the ECHO exporter lists them' },
  ),
  rcra_generator_size: t.Union([t.UnionEnum(['LQG', 'SQG', 'VSQG']), t.Null()], {
    description: 'RCRA_PERMIT_TYPES: large, small or very small quantity generator (CESQG, the older name, reads VSQG); the largest when several; null: not a generator',
  }),
  latest_violation_quarter: t.Union([t.String({ pattern: '^[0-9]{4}-Q[1-4]$', examples: ['2026-Q2'] }), t.Null()], {
    description: 'The latest quarter marked V or S in the CAA, CWA or RCRA quarterly history; the last quarter of a history is the as-of date\'s. Null: none in the window',
  }),
  latest_action_date: t.Union([t.String({ format: 'date' }), t.Null()], { description: 'The latest formal or informal action, EPA or state' }),
};
export type FindingDetail = { [K in keyof typeof FindingDetail]: Static<(typeof FindingDetail)[K]> };

/** How well a facility's coordinates place it (docs/site-report.md, "Location quality"). */
export const LocationQuality = {
  location_accuracy_m: t.Union([t.Number(), t.Null()], { description: 'FAC_ACCURACY_METERS: the stated accuracy of the coordinates, metres; null when not stated' }),
  location_method: t.Union([t.String(), t.Null()], { description: 'FAC_COLLECTION_METHOD: how the coordinates were found (EPA Horizontal Collection Method); null when not stated' }),
};
export type LocationQuality = { [K in keyof typeof LocationQuality]: Static<(typeof LocationQuality)[K]> };

/**
 * Readers of the detail and the location quality of the facility at a position of `spatial`: the
 * area file carries what they show (src/index/declared-columns.ts), so a finding reads no row.
 * One reader per field, so a finding is written in one object literal in the schema's order (an
 * object grown field by field after its literal reallocates its storage as it grows).
 */
export function findingReaders(spatial: SpatialIndex) {
  const v = declaredReader(spatial);
  const ids = programIdsReader(spatial);
  const accuracy = v.loc_accuracy_m;
  const method = (p: number): string | null => v.loc_method(p) || null;
  return {
    programIds: (p: number): FindingDetail['program_ids'] => {
      const [air, npdes, rcra, sdwa, tri] = ids(p);
      return { air: air!, npdes: npdes!, rcra: rcra!, sdwa: sdwa!, tri: tri! };
    },
    generatorSize: (p: number) => (v.rcra_generator_size(p) || null) as FindingDetail['rcra_generator_size'],
    latestQuarter: (p: number): string | null => v.latest_violation_quarter(p) || null,
    latestAction: v.latest_action_date,
    accuracy,
    method,
  };
}
