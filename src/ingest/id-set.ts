/**
 * The registry IDs ingest has indexed, for its duplicate check (first row wins), held as numbers in
 * an open-addressing table on a Float64Array. A Set of 3.2M numbers was a large part of the GC heap
 * (an entry each, marked by every full collection) and slower per ID; this table takes 8 bytes a slot,
 * 2 to 4 slots an ID, outside the GC heap. IDs that are not such
 * numbers (leading zeros, over 15 digits) keep their text in a Set beside it: EPA's are 12 digits.
 */
export class RegistryIdSet {
  private slots = new Float64Array(1 << 16);
  private mask = this.slots.length - 1;
  private numbers = 0;
  private readonly texts = new Set<string>();

  /** Adds `id` (all digits); false when it was already there. */
  addIfNew(id: string): boolean {
    // up to 15 digits without a leading zero: exact as a double, and 0 (the empty slot) is never one
    if (id.length > 15 || id.length === 0 || id.charCodeAt(0) === 48) {
      if (this.texts.has(id)) return false;
      this.texts.add(id);
      return true;
    }
    const n = Number(id);
    const slots = this.slots;
    let i = slotOf(n) & this.mask;
    for (let v = slots[i]!; v !== 0; v = slots[i]!) {
      if (v === n) return false;
      i = (i + 1) & this.mask;
    }
    slots[i] = n;
    // kept at most half full, so a probe ends within a few slots
    if (++this.numbers * 2 > slots.length) this.grow();
    return true;
  }

  private grow(): void {
    const old = this.slots;
    const slots = new Float64Array(old.length * 2);
    const mask = slots.length - 1;
    for (let k = 0; k < old.length; k++) {
      const n = old[k]!;
      if (n === 0) continue;
      let i = slotOf(n) & mask;
      while (slots[i] !== 0) i = (i + 1) & mask;
      slots[i] = n;
    }
    this.slots = slots;
    this.mask = mask;
  }
}

/** A well-mixed 32-bit hash of an integer below 2^53 (IDs are close together: their low bits alone would cluster). */
function slotOf(n: number): number {
  const lo = n >>> 0;
  const hi = (n / 4294967296) >>> 0;
  let h = Math.imul(lo ^ Math.imul(hi, 0x9e3779b1), 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
