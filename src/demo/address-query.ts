import parser from 'parse-address';
import zipcodes from 'zipcodes';
import { cleanUnit, normalizeCity, normalizeStreet, zip5 } from './address';

/** A one-line address as the demo understood it, reduced to the parts the match compares. */
export type AddressQuery = {
  /** Candidate street keys (src/demo/address.ts), most likely first; usually one. */
  streets: string[];
  unit: string;
  /** Normalised city, '' when not given. */
  city: string;
  /** 2-letter state, '' when neither given nor derivable from the ZIP. */
  state: string;
  /** ZIP5, '' when not given. */
  zip: string;
};

type Parsed = {
  number?: string;
  prefix?: string;
  street?: string;
  type?: string;
  suffix?: string;
  sec_unit_type?: string;
  sec_unit_num?: string;
  city?: string;
  state?: string;
  zip?: string;
};

const STATE_RE = /^[A-Z]{2}$/;

/**
 * Parses "100 N. Main Street Ste 5, Springfield, IL 62701-1234" (commas optional) with
 * parse-address. The street line is rebuilt from its parts and normalised by the same function
 * as the index rows. When the input has commas, its first segment is a second candidate street,
 * for lines parse-address splits oddly. A missing state is taken from the ZIP (offline table).
 * Null when no street with a house number or name can be found.
 */
export function parseAddressQuery(text: string): AddressQuery | null {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  const p = (parser.parseLocation(oneLine) ?? {}) as Parsed;
  const streets: string[] = [];
  const add = (line: string) => {
    const key = normalizeStreet(line).key;
    if (/^\d\S* \S/.test(key) && !streets.includes(key)) streets.push(key);
  };
  if (p.number && p.street) add([p.number, p.prefix, p.street, p.type, p.suffix].filter(Boolean).join(' '));
  const comma = oneLine.indexOf(',');
  if (comma > 0) add(oneLine.slice(0, comma));
  if (streets.length === 0) return null;
  const zip = zip5(p.zip ?? '');
  let state = (p.state ?? '').toUpperCase();
  if (!STATE_RE.test(state)) state = '';
  if (!state && zip) state = (zipcodes.lookup(zip)?.state ?? '').toUpperCase();
  const unit = cleanUnit(p.sec_unit_num ?? '');
  return { streets, unit, city: normalizeCity(p.city ?? ''), state, zip };
}
