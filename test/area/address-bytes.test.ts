import { describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { allocateColumns, type SpatialIndex } from '../../src/area/spatial-index';
import { addressEntry, addressPartEnd, nameAt, permuteTexts, TextBytes, textsOf } from '../../src/area/text-bytes';

/** Columns holding `entries` as the spatial index stores names and addresses. */
function stored(entries: { name: string; street: string; city: string; zip: string }[]): SpatialIndex {
  const c = allocateColumns(entries.length);
  const names = new TextBytes(), addresses = new TextBytes();
  entries.forEach((e, i) => {
    c.nameStart[i + 1] = names.push(e.name);
    c.addrStart[i + 1] = addresses.push(addressEntry(e.street, e.city, e.zip));
  });
  return { ...c, nameBytes: names.done(), addrBytes: addresses.done() } as unknown as SpatialIndex;
}

const text = fc.string({ unit: 'grapheme', maxLength: 30 });

describe('names and addresses in the spatial index', () => {
  it('read back as stored, whatever the text (empty parts, any script), a separator character in a field becoming a space', () => {
    fc.assert(fc.property(fc.array(fc.record({ name: text, street: text, city: text, zip: text }), { maxLength: 20 }), (entries) => {
      const s = stored(entries);
      const texts = textsOf(s);
      entries.forEach((e, i) => {
        expect(nameAt(s, i)).toBe(e.name);
        const clean = (v: string) => v.replaceAll('\x1f', ' ');
        expect(texts.address(i)).toEqual({ street: clean(e.street), city: clean(e.city), zip: clean(e.zip) });
        // the many-texts reader gives the same name as the one-text one
        expect(texts.name(i)).toBe(e.name);
      });
    }));
  });

  it('keep a field holding the separator apart from the next one', () => {
    const s = stored([{ name: 'A', street: '1\x1fMAIN', city: 'X\x1f', zip: '77002' }]);
    expect(textsOf(s).address(0)).toEqual({ street: '1 MAIN', city: 'X ', zip: '77002' });
  });

  it('split by their bytes (addressPartEnd) into the parts textsOf decodes, a part missing from the end empty', () => {
    const entries = ['1 MAIN\x1fHOUSTON\x1f77002', 'ONLY A STREET', 'STREET\x1fCITY', '\x1f\x1f', 'S\x1fC\x1fZ\x1fMORE', 'CAFÉ\x1fZÜRICH\x1f'];
    const names = new TextBytes(), addresses = new TextBytes();
    const c = allocateColumns(entries.length);
    entries.forEach((e, i) => {
      c.nameStart[i + 1] = names.push('N');
      c.addrStart[i + 1] = addresses.push(e);
    });
    const s = { ...c, nameBytes: names.done(), addrBytes: addresses.done() } as unknown as SpatialIndex;
    const part = (from: number, to: number) => Buffer.from(s.addrBytes.subarray(from, to)).toString('utf8');
    entries.forEach((_, i) => {
      const from = s.addrStart[i]!, to = s.addrStart[i + 1]!;
      const a = addressPartEnd(s.addrBytes, from, to);
      const cityFrom = Math.min(a + 1, to);
      const b = addressPartEnd(s.addrBytes, cityFrom, to);
      expect({ street: part(from, a), city: part(cityFrom, b), zip: part(Math.min(b + 1, to), to) }).toEqual(textsOf(s).address(i));
    });
  });
});

describe('entries moved into a new order (permuteTexts)', () => {
  it('for any reordering of the entries, entry k of the result is entry perm[k], with its offsets', () => {
    fc.assert(
      fc.property(fc.array(text, { maxLength: 40 }), fc.nat(), (names, seed) => {
        const s = stored(names.map((name) => ({ name, street: '', city: '', zip: '' })));
        // a shuffle of 0..n-1 fixed by the seed
        const perm = Uint32Array.from(names.map((_, i) => i));
        for (let i = perm.length - 1, x = seed; i > 0; i--, x = (x * 1103515245 + 12345) % 2147483648) {
          const j = x % (i + 1);
          [perm[i], perm[j]] = [perm[j]!, perm[i]!];
        }
        const start = new Uint32Array(perm.length + 1);
        const bytes = permuteTexts(perm, s.nameStart, s.nameBytes, start);
        expect(start[perm.length]).toBe(bytes.length);
        const got = Array.from(perm, (_, k) => Buffer.from(bytes.subarray(start[k]!, start[k + 1]!)).toString());
        expect(got).toEqual(Array.from(perm, (p) => nameAt(s, p)));
      }),
      { numRuns: 200, seed: 3 },
    );
  });
});
