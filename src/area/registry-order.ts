import { allocateColumns, type SpatialColumns } from './spatial-index';
import { NameBytes } from './text-bytes';

/**
 * `c` in registry_id order (the facility table's order, which the layout takes), with the order
 * it was put in: position k holds what was at `order[k]` (null: already in it, `c` itself).
 */
export function inRegistryOrder(c: SpatialColumns): { columns: SpatialColumns; order: Uint32Array | null } {
  const order = registryOrder(c);
  if (!order) return { columns: c, order };
  const n = c.count;
  const out = allocateColumns(n);
  out.states = c.states;
  const names = new NameBytes();
  const addresses = new NameBytes();
  for (let k = 0; k < n; k++) {
    const p = order[k]!;
    out.lat[k] = c.lat[p]!;
    out.lng[k] = c.lng[p]!;
    out.score[k] = c.score[p]!;
    out.flags[k] = c.flags[p]!;
    out.site[k] = c.site[p]!;
    out.state[k] = c.state[p]!;
    out.idNum[k] = c.idNum[p]!;
    out.idLen[k] = c.idLen[p]!;
    const other = c.idOther.get(p);
    if (other !== undefined) out.idOther.set(k, other);
    out.nameStart[k + 1] = names.pushBytes(c.nameBytes.subarray(c.nameStart[p]!, c.nameStart[p + 1]!));
    out.addrStart[k + 1] = addresses.pushBytes(c.addrBytes.subarray(c.addrStart[p]!, c.addrStart[p + 1]!));
  }
  out.nameBytes = names.bytes;
  out.addrBytes = addresses.bytes;
  return { columns: out, order };
}

/**
 * Positions of the columns' registry IDs in ascending string order (SQLite's order for the TEXT
 * primary key), or null when they already are in it. Registry IDs are normally 12 digits, where
 * string order is numeric order: a radix sort on the number then (milliseconds for millions);
 * otherwise a string sort.
 */
export function registryOrder(c: Pick<SpatialColumns, 'count' | 'idNum' | 'idLen' | 'idOther'>): Uint32Array | null {
  const n = c.count;
  const len = c.idLen[0] ?? 0;
  let sameShape = c.idOther.size === 0;
  for (let i = 0; i < n && sameShape; i++) if (c.idLen[i] !== len) sameShape = false;
  if (sameShape) {
    let sorted = true;
    for (let i = 1; i < n && sorted; i++) if (c.idNum[i - 1]! > c.idNum[i]!) sorted = false;
    return sorted ? null : radixOrder(c.idNum.subarray(0, n));
  }
  const ids = Array.from({ length: n }, (_, i) => c.idOther.get(i) ?? String(c.idNum[i]).padStart(c.idLen[i]!, '0'));
  let sorted = true;
  for (let i = 1; i < n && sorted; i++) if (ids[i - 1]! > ids[i]!) sorted = false;
  if (sorted) return null;
  return Uint32Array.from(ids.map((_, i) => i)).sort((a, b) => (ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : 0));
}

const HALF = 2 ** 25;

/** Stable LSD radix sort of positions by non-negative integer keys below 2^50: four passes of 13/12 bits. */
function radixOrder(keys: Float64Array): Uint32Array {
  const n = keys.length;
  let from = Uint32Array.from({ length: n }, (_, k) => k);
  let to = new Uint32Array(n);
  const lo = new Uint32Array(n), hi = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const h = Math.floor(keys[i]! / HALF);
    hi[i] = h;
    lo[i] = keys[i]! - h * HALF;
  }
  const counts = new Uint32Array(1 << 13);
  for (const [part, shift] of [[lo, 0], [lo, 13], [hi, 0], [hi, 13]] as const) {
    counts.fill(0);
    for (let k = 0; k < n; k++) counts[(part[from[k]!]! >>> shift) & 8191]!++;
    let sum = 0;
    for (let d = 0; d < counts.length; d++) {
      const c = counts[d]!;
      counts[d] = sum;
      sum += c;
    }
    for (let k = 0; k < n; k++) {
      const p = from[k]!;
      to[counts[(part[p]! >>> shift) & 8191]!++] = p;
    }
    [from, to] = [to, from];
  }
  return from;
}
