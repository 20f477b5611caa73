import { NAME_WORDS, NUMBER_WORDS, STREET_TYPES, UNIT_WORDS } from './street-words';

/**
 * Address normalisation shared by ingest (src/index/index-writer.ts fills the indexed
 * `facility_address` table with `normalizeAddressKey`) and the demo lookup (which builds the same key
 * from a parsed query). Changing the output of these functions invalidates every built index's
 * `facility_address` table: indexes must then be rebuilt (docs/demo.md, "Match key").
 */

/** A street line reduced to what identifies a building: house number and street words, no unit. */
export type NormalizedStreet = {
  /** `"<house> <WORDS>"` with the street words joined without spaces; `"<WORDS>"` when there is no house number. */
  key: string;
  /** Secondary unit ("STE 200" -> "200"), or '' when the line has none. */
  unit: string;
};

/**
 * Normalises one street line: upper case, punctuation dropped, house-number ranges to their first
 * number ("4500-4536" -> "4500"), every word through the USPS tables (Street/STR -> ST, North -> N,
 * Saint -> ST, First/1st -> 1), the secondary unit split off. The street words are then joined
 * WITHOUT spaces, so that where a parser splits a word or not ("ROUTE 9W" vs "ROUTE 9 W",
 * "U.S. 1" vs "US 1") the key is the same; the house number stays apart so "1 23RD ST" and
 * "12 3RD ST" stay distinct.
 */
export function normalizeStreet(street: string): NormalizedStreet {
  const { house, words, unit } = streetParts(street);
  if (!house && words.length === 0) return { key: '', unit };
  const rest = words.join('');
  return { key: house ? `${house} ${rest}` : rest, unit };
}

/** A street line's parts as `normalizeStreet` reads them, the street words still apart (the demo's search fallback compares them). */
export type StreetParts = { house: string; words: string[]; unit: string };

/** The steps of `normalizeStreet` before the words are joined: house number, canonical street words, unit. */
export function streetParts(street: string): StreetParts {
  let s = street.toUpperCase();
  let unit = '';
  const hash = s.indexOf('#');
  if (hash > 0) {
    unit = s.slice(hash + 1);
    s = s.slice(0, hash);
  }
  // "4500-4536 MAIN" is a range: the first number names the building. "123-45" (Queens style,
  // second number smaller) is one number written with a hyphen.
  if (s.includes('-')) s = s.replace(/^\s*(\d+)\s*-\s*(\d+)\b/, (_, a: string, b: string) => (Number(b) >= Number(a) ? a : a + b));
  let words = alnumWords(s);
  if (words.length === 0) return { house: '', words: [], unit: cleanUnit(unit) };
  words[0] = NUMBER_WORDS.get(words[0]!) ?? words[0]!;
  // A designator right after the house number is a street name ("100 Suite Rd" is improbable, "100 Unit Rd" exists).
  let u = -1;
  for (let i = 2; i < words.length; i++) {
    if (UNIT_WORDS.has(words[i]!)) {
      u = i;
      break;
    }
  }
  if (u >= 0) {
    unit = words.slice(u + 1).join(' ') + (unit ? ` ${unit}` : '');
    words = words.slice(0, u);
  }
  const first = words[0]!;
  const c0 = first.charCodeAt(0);
  const house = c0 >= 48 && c0 <= 57 ? (c0 === 48 ? first.replace(/^0+(?=\d)/, '') : first) : '';
  const rest: string[] = [];
  for (let i = house ? 1 : 0; i < words.length; i++) rest.push(canonicalWord(words[i]!));
  return { house, words: rest, unit: cleanUnit(unit) };
}

/**
 * The runs of A-Z and 0-9 of an upper-cased line, in order: what `replace(/[^A-Z0-9]+/g, ' ').trim().split(' ')`
 * gives without its empty strings, in one pass and without the intermediate strings.
 */
function alnumWords(s: string): string[] {
  const out: string[] = [];
  let start = -1;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const alnum = (c >= 65 && c <= 90) || (c >= 48 && c <= 57);
    if (alnum) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      out.push(s.slice(start, i));
      start = -1;
    }
  }
  if (start >= 0) out.push(start === 0 ? s : s.slice(start));
  return out;
}

/** One street word in canonical form; ordinals lose their suffix ("97TH" and "97" alike, "FIRST" -> "1"). */
function canonicalWord(w: string): string {
  const named = NAME_WORDS.get(w) ?? w;
  const c = named.charCodeAt(0);
  if (c >= 48 && c <= 57) {
    // only a word starting with a digit can be an ordinal
    const ordinal = /^(\d+)(?:ST|ND|RD|TH)$/.exec(named);
    if (ordinal) return ordinal[1]!;
  }
  return STREET_TYPES.get(named) ?? named;
}

/** A unit designator's value in comparable form ("# 05" -> "5"). */
export function cleanUnit(unit: string): string {
  if (unit === '') return '';
  return unit.toUpperCase().replace(/[^A-Z0-9]+/g, '').replace(/^0+(?=.)/, '');
}

/**
 * The index's `address_key`: normalised street line + 2-letter state, e.g. `"717 ECTRST|AR"`.
 * The state is in the key so one indexed lookup stays small nationally; city and ZIP are NOT,
 * because people omit one or the other: the demo compares them after the lookup
 * (src/demo/offline-geocoder.ts, sameLocality).
 */
export function normalizeAddressKey(street: string, state: string): string {
  return addressKey(normalizeStreet(street).key, state);
}

/** The `address_key` of an already normalised street key (the demo's parsed query) and a state. */
export function addressKey(streetKey: string, state: string): string {
  // ingest passes the state already trimmed and upper-cased (two letters): no need to redo it
  const plain = state.length === 2 && isUpperAscii(state.charCodeAt(0)) && isUpperAscii(state.charCodeAt(1));
  return `${streetKey}|${plain ? state : state.trim().toUpperCase()}`;
}

const isUpperAscii = (c: number) => c >= 65 && c <= 90;

/** City for comparison: upper case, no punctuation or spaces, Saint/Fort/Mount abbreviated. */
export function normalizeCity(city: string): string {
  return city
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .map((w) => ({ SAINT: 'ST', FORT: 'FT', MOUNT: 'MT', NORTH: 'N', SOUTH: 'S', EAST: 'E', WEST: 'W' })[w] ?? w)
    .join('');
}

/**
 * First five digits of a ZIP or ZIP+4 ("72150-2513", "721502513" -> "72150"). A 3-4 digit value is
 * a ZIP whose leading zeros a spreadsheet dropped ("2134" -> "02134"). '' when it is not a ZIP.
 */
export function zip5(zip: string): string {
  const d = zip.replace(/[\s-]/g, '');
  if (!/^\d+$/.test(d)) return '';
  if (d.length === 5 || d.length === 9) return d.slice(0, 5);
  return d.length === 3 || d.length === 4 ? d.padStart(5, '0') : '';
}
