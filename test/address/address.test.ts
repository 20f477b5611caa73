import { describe, expect, it } from 'bun:test';
import { normalizeAddressKey, normalizeCity, normalizeStreet, zip5 } from '../../src/address/address';
import { parseAddressQuery } from '../../src/demo/address-query';
import { findFacilityAtAddress } from '../../src/demo/offline-geocoder';
import { STREET_TYPES } from '../../src/address/street-words';
import { facility, memoryIndex } from '../helpers';
import { frsAddresses, frsRows } from '../demo/frs-fixture';

describe('street normalisation', () => {
  it.each([
    ['717 EAST CENTER STREET', '717 E Center St.'],
    ['717 east center street', '717 E. CENTER ST'],
    ['100  North   Main   Street', '100 N MAIN ST'],
    ['100 Main Street Suite 200', '100 MAIN ST'],
    ['100 Main St Ste. 200', '100 Main St #200'],
    ['100 Main St, Apt 5', '100 MAIN STREET'],
    ['1505 109TH', '1505 109'],
    ['12 First Avenue', '12 1st Ave'],
    ['One Chemical Plaza', '1 CHEMICAL PLZ'],
    ['4500-4536 DISTRICT BLVD', '4500 District Boulevard'],
    ['12 Route 9W', '12 Rte 9 W'],
    ['55 Saint Johns Parkway', '55 St. Johns Pkwy'],
    ['0100 Main St', '100 Main St'],
  ])('"%s" and "%s" have the same key', (a, b) => {
    expect(normalizeStreet(a).key).toBe(normalizeStreet(b).key);
  });

  it.each([
    ['1 23RD ST', '12 3RD ST'],
    ['100 MAIN ST', '102 MAIN ST'],
    ['100 N MAIN ST', '100 S MAIN ST'],
    ['100 MAIN ST', '100 MAIN AVE'],
  ])('"%s" and "%s" have different keys', (a, b) => {
    expect(normalizeStreet(a).key).not.toBe(normalizeStreet(b).key);
  });

  it('splits the unit off the street line', () => {
    expect(normalizeStreet('100 Main St Suite 0200').unit).toBe('200');
    expect(normalizeStreet('100 Main St # 5B').unit).toBe('5B');
  });

  it('keeps a designator word right after the house number as a street name', () => {
    expect(normalizeStreet('100 Unit Rd').key).toBe('100 UNITRD');
  });

  it('every abbreviation in the street-type table maps to itself, so normalising twice changes nothing', () => {
    for (const abbr of STREET_TYPES.values()) expect(STREET_TYPES.get(abbr) ?? abbr).toBe(abbr);
  });

  it('puts the state in the index key', () => {
    expect(normalizeAddressKey('717 EAST CENTER STREET', 'ar')).toBe('717 ECTRST|AR');
  });

  it.each([
    ['72150-2513', '72150'],
    ['721502513', '72150'],
    ['2134', '02134'],
    ['ABCDE', ''],
  ])('ZIP %s is %s', (zip, five) => expect(zip5(zip)).toBe(five));

  it('compares cities without punctuation and with Saint/Fort abbreviated', () => {
    expect(normalizeCity('St. Louis')).toBe(normalizeCity('SAINT LOUIS'));
    expect(normalizeCity('Fort Worth')).toBe(normalizeCity('FT WORTH'));
  });
});

describe('matching a one-line address against the index', () => {
  const index = memoryIndex([
    facility({ registry_id: '990000000101', fac_street: '717 E CENTER ST', fac_city: 'SHERIDAN', fac_state: 'AR', fac_zip: '72150-2513' }),
    facility({ registry_id: '990000000102', fac_street: '717 E CENTER ST', fac_city: 'BENTON', fac_state: 'AR', fac_zip: '72015' }),
    facility({ registry_id: '990000000103', fac_street: '200 Industrial Pkwy Ste 4', fac_city: 'AKRON', fac_state: 'OH', fac_zip: '44301' }),
    facility({ registry_id: '990000000104', fac_street: '200 Industrial Pkwy Ste 9', fac_city: 'AKRON', fac_state: 'OH', fac_zip: '44301' }),
  ]);
  const find = (text: string) => {
    const q = parseAddressQuery(text);
    return q ? (findFacilityAtAddress(index, q)?.registry_id ?? null) : null;
  };

  it.each([
    ['717 East Center Street, Sheridan, AR 72150', '990000000101'],
    ['717 E. CENTER ST., SHERIDAN, AR 72150-2513', '990000000101'],
    ['  717   e center st   sheridan   ar   72150 ', '990000000101'],
    ['717 E Center St Sheridan AR', '990000000101'],
    ['717 E Center St, 72150', '990000000101'],
    ['717 East Center Street Unit 3, Sheridan, Arkansas 72150', '990000000101'],
    ['717 E Center St, Benton, AR', '990000000102'],
    ['200 Industrial Parkway Suite 9, Akron, OH 44301', '990000000104'],
    ['200 Industrial Parkway, Akron, OH 44301', '990000000103'],
  ])('"%s" finds %s', (text, id) => expect(find(text)).toBe(id));

  it.each([
    ['717 E Center St, Little Rock, AR 72201', 'same street and number in another city and ZIP'],
    ['717 E Center St, Little Rock, AR', 'same street and number in another city, no ZIP'],
    ['717 E Center St, Sheridan, WY 82801', 'same street, city name in another state'],
    ['717 E Center St, AR', 'no city and no ZIP to tell the two apart'],
    ['719 E Center St, Sheridan, AR 72150', 'another house number'],
    ['717 W Center St, Sheridan, AR 72150', 'another directional'],
    ['Main Street', 'no house number, no place'],
  ])('"%s" finds nothing (%s)', (text) => expect(find(text)).toBeNull());
});

describe('the real addresses of the EPA FRS extract (shared/data/frs_naics_32591.csv)', () => {
  // Real addresses, fictitious IDs and names, clean default scores: see frs-fixture.ts.
  const addresses = frsAddresses();
  const index = memoryIndex(frsRows(addresses));
  const keyOf = (street: string, state: string) => normalizeAddressKey(street, state);
  const found = (text: string) => {
    const q = parseAddressQuery(text);
    return q ? findFacilityAtAddress(index, q) : null;
  };
  // Two rows of the file cannot match by construction: one has no state, one a 6-digit ZIP.
  const usable = addresses.filter((a) => a.state !== '' && zip5(a.zip) !== '');

  it('has the ~1,000 facilities the file is documented to hold', () => {
    expect(addresses.length).toBe(998);
    expect(usable.length).toBe(996);
  });

  it('finds a facility at the same normalised address for every usable row, typed as "street, city, ST zip"', () => {
    const misses = usable.filter((a) => {
      const row = found(`${a.street}, ${a.city}, ${a.state} ${a.zip}`);
      return row === null || keyOf(row.fac_street, row.fac_state) !== keyOf(a.street, a.state) || zip5(row.fac_zip) !== zip5(a.zip);
    });
    expect(misses.map((a) => `${a.street}, ${a.city}, ${a.state} ${a.zip}`)).toEqual([]);
  });

  it.each([
    ['lower case, no commas, ZIP5', (a: { street: string; city: string; state: string; zip: string }) => `${a.street.toLowerCase()} ${a.city.toLowerCase()} ${a.state} ${zip5(a.zip)}`],
    ['no commas, no ZIP', (a: { street: string; city: string; state: string }) => `${a.street} ${a.city} ${a.state}`],
  ])('finds every numbered street typed as %s', (_, form) => {
    const numbered = usable.filter((a) => /^\d+ [A-Z]/.test(a.street) && !a.street.includes(','));
    expect(numbered.length).toBeGreaterThan(900);
    expect(numbered.filter((a) => found(form(a)) === null).map(form)).toEqual([]);
  });

  it('finds the facility from the EPA-standardised form of its address whenever both normalise alike', () => {
    const same = usable.filter((a) => a.stdStreet !== '' && keyOf(a.stdStreet, a.state) === keyOf(a.street, a.state));
    expect(same.length).toBeGreaterThan(750);
    const misses = same.filter((a) => found(`${a.stdStreet}, ${a.city}, ${a.state} ${a.zip}`) === null);
    expect(misses).toEqual([]);
  });

  it('never answers a real street with the city and ZIP of another facility in the same state', () => {
    let checked = 0;
    const taken = new Set(usable.map((b) => `${keyOf(b.street, b.state)} ${zip5(b.zip)}`));
    for (const a of usable) {
      const other = usable.find((b) => b.state === a.state && zip5(b.zip) !== zip5(a.zip) && normalizeCity(b.city) !== normalizeCity(a.city));
      if (!other) continue;
      // Skip the rare case where the other city really has a facility on the same street line.
      if (taken.has(`${keyOf(a.street, a.state)} ${zip5(other.zip)}`)) continue;
      checked++;
      expect(found(`${a.street}, ${other.city}, ${a.state} ${other.zip}`)).toBeNull();
    }
    expect(checked).toBeGreaterThan(900);
  });
});

describe('street key fast paths (one-pass word split, state already upper-case)', () => {
  it.each([
    ['  0045-0012 north  first street, ste. 200 ', 'TX', '450012 N1ST|TX'], // Queens style (second number smaller): one number, leading zeros dropped,
    ['4500-4536 Main St', ' tx ', '4500 MAINST|TX'],
    ['12 café  ROAD #5', 'Ca', '12 CAFRD|CA'],
    ['..//--', 'AR', '|AR'],
    ['PO BOX 12', 'NY', 'POBOX12|NY'],
    ['100 UNIT RD', 'OH', '100 UNITRD|OH'],
  ])('%p in %p keys as %p', (street, state, key) => {
    expect(normalizeAddressKey(street, state)).toBe(key);
  });
});
