import parser from 'parse-address';
import { US_STATE_CODES } from '../shared/us-states';
import { cleanUnit, normalizeCity, normalizeStreet, zip5 } from '../address/address';

/** One reading of where the street ends and the city begins. */
export type StreetCandidate = {
  /** Street key (src/demo/address.ts normalizeStreet). */
  street: string;
  /** Secondary unit, '' when none. */
  unit: string;
  /** Normalised city, '' when this reading has none. */
  city: string;
  /** The street line and the city as typed, upper case (the search fallback's words). */
  typedStreet: string;
  typedCity: string;
};

/** A one-line address as the demo understood it: candidate readings, most likely first. */
export type AddressQuery = {
  candidates: StreetCandidate[];
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

const STATE_NAMES: Record<string, string> = Object.fromEntries(
  `ALABAMA=AL ALASKA=AK ARIZONA=AZ ARKANSAS=AR CALIFORNIA=CA COLORADO=CO CONNECTICUT=CT DELAWARE=DE FLORIDA=FL GEORGIA=GA
   HAWAII=HI IDAHO=ID ILLINOIS=IL INDIANA=IN IOWA=IA KANSAS=KS KENTUCKY=KY LOUISIANA=LA MAINE=ME MARYLAND=MD
   MASSACHUSETTS=MA MICHIGAN=MI MINNESOTA=MN MISSISSIPPI=MS MISSOURI=MO MONTANA=MT NEBRASKA=NE NEVADA=NV
   NEW_HAMPSHIRE=NH NEW_JERSEY=NJ NEW_MEXICO=NM NEW_YORK=NY NORTH_CAROLINA=NC NORTH_DAKOTA=ND OHIO=OH OKLAHOMA=OK
   OREGON=OR PENNSYLVANIA=PA RHODE_ISLAND=RI SOUTH_CAROLINA=SC SOUTH_DAKOTA=SD TENNESSEE=TN TEXAS=TX UTAH=UT
   VERMONT=VT VIRGINIA=VA WASHINGTON=WA WEST_VIRGINIA=WV WISCONSIN=WI WYOMING=WY DISTRICT_OF_COLUMBIA=DC PUERTO_RICO=PR`
    .split(/\s+/)
    .map((p) => p.replace(/_/g, ' ').split('=') as [string, string]),
);

// The last 3, 2 or 1 words of a line (state names are up to 3 words: "DISTRICT OF COLUMBIA"); compiled once.
const LAST_WORDS = [3, 2, 1].map((words) => ({ words, re: new RegExp(`(?:^|\\s)((?:\\S+\\s+){${words - 1}}\\S+)$`) }));

/** Takes a trailing ZIP and then a trailing state (code or name) off a string. */
function takeStateZip(text: string, needPrefix: boolean): { rest: string; state: string; zip: string } {
  let rest = text.trim();
  let zip = '';
  let state = '';
  const z = /(?:^|\s)(\d{5})(?:\s*-\s*\d{4})?$/.exec(rest);
  if (z) (zip = z[1]!), (rest = rest.slice(0, z.index).trim());
  const upper = rest.toUpperCase();
  for (const { words, re } of LAST_WORDS) {
    const m = re.exec(upper);
    if (!m || (needPrefix && m.index === 0)) continue;
    const name = m[1]!.replace(/[^A-Z ]/g, '').replace(/\s+/g, ' ');
    const code = words === 1 && US_STATE_CODES.has(name) ? name : STATE_NAMES[name];
    if (code) {
      state = code;
      rest = rest.slice(0, m.index).trim();
      break;
    }
  }
  return { rest, state, zip };
}

/**
 * Comma-separated reading, for lines parse-address rejects ("3520 FEDERAL STREET, EAST, BALTIMORE,
 * MD 21213-4014", "N57 W13640 REICHERT ST, ..."): ZIP and state off the end, the last segment
 * left is the city, everything before it the street.
 */
function splitByCommas(oneLine: string): { street: string; city: string; state: string; zip: string } {
  const segs = oneLine.split(',').map((x) => x.trim()).filter(Boolean);
  const { rest, state, zip } = takeStateZip(segs.pop() ?? '', segs.length === 0);
  if (rest) segs.push(rest);
  const city = segs.length > 1 ? segs.pop()! : '';
  return { street: segs.join(' '), city, state, zip };
}

/** Longest city name tried when the line has no commas ("NORTH KANSAS CITY", "ELK GROVE VILLAGE"). */
const MAX_CITY_WORDS = 4;

/**
 * Readings of a comma-less line: ZIP and state off the end, then every split of the words left
 * into street + city (city up to MAX_CITY_WORDS words, or none), longest street first. Each is a
 * cheap indexed lookup; a wrong split names a street no facility of that state and place has.
 */
function splitByWords(oneLine: string): { streets: { street: string; city: string }[]; state: string; zip: string } {
  const { rest, state, zip } = takeStateZip(oneLine, true);
  const words = rest.split(' ').filter(Boolean);
  const streets: { street: string; city: string }[] = [];
  for (let cityWords = 0; cityWords <= Math.min(MAX_CITY_WORDS, words.length - 2); cityWords++) {
    streets.push({ street: words.slice(0, words.length - cityWords).join(' '), city: words.slice(words.length - cityWords).join(' ') });
  }
  return { streets, state, zip };
}

/**
 * Parses "100 N. Main Street Ste 5, Springfield, IL 62701-1234" (commas optional) with
 * parse-address. The street line is rebuilt from its parts and normalised by the same function
 * as the index rows. Lines with commas are also read segment-wise (splitByCommas) for a second
 * candidate street and for any part parse-address missed. A missing state is taken from the ZIP
 * (offline ZIP table). Null when no street can be found at all.
 */
export function parseAddressQuery(text: string): AddressQuery | null {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  const p = (parser.parseLocation(oneLine) ?? {}) as Parsed;
  const byCommas = oneLine.includes(',') ? splitByCommas(oneLine) : null;
  const byWords = byCommas ? null : splitByWords(oneLine);
  const candidates: StreetCandidate[] = [];
  const add = (line: string, city: string) => {
    const { key, unit } = normalizeStreet(line);
    const c = normalizeCity(city);
    // A lone number is not a street (a ZIP typed alone); "1505 109" (1505 109th) is.
    if (!(/[A-Z]/.test(key) || key.includes(' '))) return;
    if (!candidates.some((x) => x.street === key && x.city === c)) {
      candidates.push({ street: key, unit: unit || cleanUnit(p.sec_unit_num ?? ''), city: c, typedStreet: line.toUpperCase(), typedCity: city.toUpperCase() });
    }
  };
  // Where the line has commas, its segments are the better witness for city, state and ZIP.
  const parsedCity = byCommas?.city || p.city || '';
  if (p.number && p.street) add([p.number, p.prefix, p.street, p.type, p.suffix].filter(Boolean).join(' '), parsedCity);
  if (byCommas?.street) add(byCommas.street, byCommas.city);
  for (const w of byWords?.streets ?? []) add(w.street, w.city);
  if (candidates.length === 0) return null;
  const zip = zip5(byCommas?.zip || byWords?.zip || '') || zip5(p.zip ?? '');
  let state = byCommas?.state || byWords?.state || (p.state ?? '').toUpperCase();
  if (!US_STATE_CODES.has(state)) state = '';
  if (!state && zip) state = stateOfZip(zip);
  return { candidates, state, zip };
}

type ZipTable = { lookup(zip: string): { state: string } | undefined };
let zipTable: ZipTable | undefined;

/**
 * State of a 5-digit ZIP, for addresses given without one. The `zipcodes` table is a large object
 * literal (slow and heap-heavy to load), so it is loaded on the first such address, not at
 * start: every other process (CLI commands, servers that never see one) never pays for it.
 */
function stateOfZip(zip: string): string {
  zipTable ??= require('zipcodes') as ZipTable;
  return (zipTable.lookup(zip)?.state ?? '').toUpperCase();
}
