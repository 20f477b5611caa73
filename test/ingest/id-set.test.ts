import { describe, expect, it } from 'bun:test';
import { RegistryIdSet } from '../../src/ingest/id-set';

describe('RegistryIdSet: the IDs already indexed', () => {
  it('says an ID is new the first time and not after', () => {
    const seen = new RegistryIdSet();
    expect(seen.addIfNew('110000123456')).toBe(true);
    expect(seen.addIfNew('110000123456')).toBe(false);
    expect(seen.addIfNew('110000123457')).toBe(true);
  });

  it('keeps every one of 300,000 neighbouring IDs across its growth, and knows each again', () => {
    const seen = new RegistryIdSet();
    const ids = Array.from({ length: 300_000 }, (_, i) => String(110000000000 + i * 3));
    expect(ids.every((id) => seen.addIfNew(id))).toBe(true);
    expect(ids.some((id) => seen.addIfNew(id))).toBe(false);
    // the IDs between them were never added
    expect(seen.addIfNew(String(110000000001))).toBe(true);
  });

  it.each([
    ['a leading zero', '0110000123456', '110000123456'],
    ['16 digits', '1100001234567890', '1100001234567891'],
    ['15 digits, the longest held as a number', '999999999999999', '999999999999998'],
  ])('an ID with %s is told apart from its neighbour and found again', (_why, id, other) => {
    const seen = new RegistryIdSet();
    expect(seen.addIfNew(id)).toBe(true);
    expect(seen.addIfNew(other)).toBe(true);
    expect(seen.addIfNew(id)).toBe(false);
    expect(seen.addIfNew(other)).toBe(false);
  });
});
