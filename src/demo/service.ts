import { redactedComponents } from '../facilities/service';
import { AppError } from '../errors';
import type { SpatialHandle } from '../area/spatial-handle';
import type { FacilityIndex } from '../index/facility-index';
import type { Log } from '../log';
import { parseAddressQuery } from './address-query';
import type { Geocoder } from './geocoder';
import type { DemoPreview } from './model';
import { nearestFacilityId } from './nearest-facility';

/** Why an address found nothing, in words a prospect can act on. */
function notFoundMessage(address: string): string {
  const q = parseAddressQuery(address);
  if (!q) return 'The address could not be geocoded: give a US street address with a house number, e.g. "100 Main St, Springfield, IL 62701"';
  if (!q.state) return 'The address could not be geocoded: add the state or the ZIP code';
  if (!q.zip && !q.candidates.some((c) => c.city !== '')) return 'The address could not be geocoded: add the city or the ZIP code';
  return 'No facility in the index is at this address';
}

/**
 * The facility at a street address, as the demo's redacted preview (docs/demo.md).
 * The offline geocoder names the facility itself; a point from an external geocoder is answered
 * with the nearest facility within `maxMiles`.
 */
export async function demoLookup(
  index: FacilityIndex,
  spatial: SpatialHandle,
  geocoder: Geocoder,
  address: string,
  maxMiles: number,
  log: Log,
): Promise<DemoPreview> {
  const text = address.trim();
  if (text === '') throw new AppError('VALIDATION_ERROR', 'address: must not be empty');
  const hit = await geocoder.geocode(text);
  if (!hit) throw new AppError('NOT_FOUND', notFoundMessage(text));
  const id = hit.registry_id ?? nearestFacilityId(spatial.require(), hit.lat, hit.lng, maxMiles);
  const row = id === null ? null : index.getSummary(id);
  // The address itself is a prospect's input: logged never, only where its answer came from.
  log({ level: 'info', msg: 'demo lookup', source: hit.source, found: row !== null });
  if (!row) throw new AppError('NOT_FOUND', `The address was geocoded, but no facility in the index is within ${maxMiles} mile of it`);
  return {
    fac_name: row.fac_name,
    fac_city: row.fac_city,
    fac_state: row.fac_state,
    overall_score: row.overall_score,
    active_enforcement: row.active_enforcement,
    score_components: redactedComponents(),
  };
}
