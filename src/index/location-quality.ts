/**
 * How well a facility's coordinates place it, from ECHO's `FAC_COLLECTION_METHOD` (EPA's Horizontal
 * Collection Method words) and `FAC_ACCURACY_METERS` (docs/site-report.md, "Location quality").
 * A centroid method places the centre of an area (a ZIP, a census block, a county or city, a
 * land-survey section), not the facility: such a point says nothing about what is next to a site.
 */

/** The methods that place an area's centre: every `...CENTROID` word and the Public Land Survey ones. */
export function isAreaCentreMethod(method: string): boolean {
  const m = method.toUpperCase();
  return m.includes('CENTROID') || m.startsWith('PUBLIC LAND SURVEY');
}

/** FAC_ACCURACY_METERS as a number of metres, or null when blank or not a positive number (never a reason to reject a row). */
export function accuracyMeters(raw: string): number | null {
  const v = raw.trim();
  if (v === '') return null;
  const n = Number(v);
  return Number.isFinite(n) && n > 0 ? n : null;
}

/** Default coarsest stated accuracy (metres) a point may have and still be claimed on site or adjoining. */
export const APPROXIMATE_LOCATION_METERS = 1000;

/**
 * Why a facility's point cannot tell whether it is on or next to a site, or null when it can: an
 * area-centre method, or a stated accuracy coarser than `maxMeters`.
 */
export function approximateLocationReason(accuracy: number | null, method: string | null, maxMeters: number): string | null {
  const centre = method !== null && isAreaCentreMethod(method);
  if (!centre && (accuracy === null || accuracy <= maxMeters)) return null;
  const stated = accuracy === null ? '' : `±${Math.round(accuracy)} m`;
  return centre ? `approximate location (${method!.toLowerCase()}${stated ? `, ${stated}` : ''})` : `approximate location (${stated})`;
}
