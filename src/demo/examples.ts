import type { FacilityIndex } from '../index/facility-index';
import { parseAddressQuery } from './address-query';
import { findFacilityAtAddress } from './offline-geocoder';

/** A facility of the served index whose own address the demo resolves back to it. */
export type DemoExample = { address: string; registry_id: string; fac_name: string };

/** Facilities looked at, in registry ID order: the examples are picked among them. */
const CANDIDATES = 500;

/** The address line the page shows and the demo reads: "100 MAIN ST, SPRINGFIELD, IL 62701". */
export function addressLine(f: { fac_street: string; fac_city: string; fac_state: string; fac_zip: string }): string {
  return `${f.fac_street}, ${f.fac_city}, ${f.fac_state} ${f.fac_zip}`.trim();
}

/**
 * Up to `count` example addresses for the page's demo, from the index being served (so they work
 * on the bundled fictitious sample and on a real index alike): the lowest registry IDs whose own
 * address the offline geocoder resolves back to that facility, one per state. The same index gives
 * the same examples.
 */
export function demoExamples(index: FacilityIndex, count: number): DemoExample[] {
  const out: DemoExample[] = [];
  const states = new Set<string>();
  for (const f of index.firstSummaries(CANDIDATES)) {
    if (out.length === count) break;
    if (states.has(f.fac_state)) continue;
    const address = addressLine(f);
    const q = parseAddressQuery(address);
    if (q && findFacilityAtAddress(index, q)?.registry_id === f.registry_id) {
      out.push({ address, registry_id: f.registry_id, fac_name: f.fac_name });
      states.add(f.fac_state);
    }
  }
  return out;
}
