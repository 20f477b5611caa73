import { allocateRecords, copyRecord, type FacilityRecord, type SpatialIndex } from '../area/spatial-index';
import type { Listed } from './service';

// Kept while no larger than this; a larger report's text copy is let go after it.
const KEEP_BYTES = 8 << 20;
let spare: Uint8Array | null = null;
// a position and a finding's place packed in one double (both below 2^26: exact), sorted natively
const PLACE = 2 ** 26;

/**
 * What a finding's JSON reads from the spatial index, per finding, in the findings' order (nearest
 * first): ID, name and address (their bytes copied into one small array), state, score, site-fact
 * bits and flags. The index's arrays are in cell order and the findings' order jumps from cell to
 * cell, so reading them finding by finding misses the cache on every array; read here in position
 * order, facilities of one cell are read together: writing a dense report's findings (the densest
 * metro, ~1,100 of them) took about a fifth less time, measured in process. The record only, not
 * the coordinates (copyFacility), which the listing already turned into distance and bearing: they
 * added ~0.1 ms of cache misses to such a report.
 */
export class FindingColumns {
  /** Finding i's score, flags, site facts, state and registry ID at place i. */
  readonly record: FacilityRecord;
  /** Name and address entries, copied: finding i's name is text[nameFrom[i]..addrFrom[i]), its address entry text[addrFrom[i]..addrTo[i]). */
  readonly text: Uint8Array;
  readonly nameFrom: Uint32Array;
  readonly addrFrom: Uint32Array;
  readonly addrTo: Uint32Array;

  constructor(s: SpatialIndex, listed: readonly Listed[]) {
    const n = listed.length;
    if (s.count >= PLACE || n >= PLACE) throw new Error('finding columns: position beyond 2^26');
    const order = new Float64Array(n);
    for (let i = 0; i < n; i++) order[i] = listed[i]!.pos * PLACE + i;
    order.sort();
    this.record = allocateRecords(n);
    this.nameFrom = new Uint32Array(n);
    this.addrFrom = new Uint32Array(n);
    this.addrTo = new Uint32Array(n);
    // the texts in position order; each finding's place in them is recorded
    const { nameStart, nameBytes, addrStart, addrBytes } = s;
    let text = spare ?? new Uint8Array(1 << 16);
    spare = null;
    let at = 0;
    for (let j = 0; j < n; j++) {
      const key = order[j]!;
      const p = Math.floor(key / PLACE);
      const i = key - p * PLACE;
      copyRecord(this.record, i, s, p);
      const nameEnd = nameStart[p + 1]!, addrEnd = addrStart[p + 1]!;
      const need = at + (nameEnd - nameStart[p]!) + (addrEnd - addrStart[p]!);
      if (need > text.length) {
        const more = new Uint8Array(Math.max(text.length * 2, need));
        more.set(text.subarray(0, at));
        text = more;
      }
      // byte by byte: names and addresses are a few dozen bytes, `set` costs a native call each
      this.nameFrom[i] = at;
      for (let k = nameStart[p]!; k < nameEnd; k++) text[at++] = nameBytes[k]!;
      this.addrFrom[i] = at;
      for (let k = addrStart[p]!; k < addrEnd; k++) text[at++] = addrBytes[k]!;
      this.addrTo[i] = at;
    }
    this.text = text;
  }

  /** The text copy is kept for the next report (one report is written at a time: writing is synchronous). */
  release(): void {
    if (this.text.length <= KEEP_BYTES) spare = this.text;
  }
}
