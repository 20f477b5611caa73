import { roundMiles } from '../area/service';
import type { SpatialIndex } from '../area/spatial-index';
import { addressPartEnd } from '../area/text-bytes';
import type { FacilityIndex } from '../index/facility-index';
import { PROGRAM_BITS, SITE_BIT, siteFactsOfBits } from '../index/site-facts';
import { JsonBytes, jsonPiece } from '../shared/json-bytes';
import { MAX_SEARCH_MILES } from './categories';
import { directionOf, roundBearing } from './compass';
import { FindingColumns } from './finding-columns';
import { programList } from './facts';
import { siteReportParts, type Listed, type Listing, type SiteQuery } from './service';

// The report is stringified with its findings empty, then the findings are written in their place.
// A quote inside a JSON string is always escaped, so this text with its bare quote can only be the
// key itself; nothing before it (the site, the distances) has a key of that name.
const EMPTY_FINDINGS = ',"findings":[]';

// A finding's JSON is written in pieces that mostly repeat: keys with the punctuation around them,
// and values that take one of a few thousand texts (a distance has 3 decimals and is at most the
// largest search distance, a bearing has 1, a score is 0-100). Each piece is made once, with the
// keys that follow it, so a finding is 15 copies; making text of a fraction costs ~250 ns, and
// three of them per finding were a third of the time. Keys in the schema's order (Finding in
// ./model.ts), as the tests check byte for byte against JSON.stringify of buildSiteReport's report.
const HEAD = jsonPiece('{"registry_id":');
const NAME = jsonPiece(',"fac_name":');
const STREET = jsonPiece(',"fac_street":');
const CITY = jsonPiece(',"fac_city":');

const pieces = (n: number, of: (k: number) => string) => Array.from({ length: n }, (_, k) => jsonPiece(of(k)));
let milesPieces: Uint8Array[] | null = null;
let bearingPieces: Uint8Array[] | null = null;
const milesText = (miles: number) => `,"distance_miles":${miles},"bearing_degrees":`;
/** `,"distance_miles":<roundMiles(d)>,"bearing_degrees":` */
function milesPiece(d: number): Uint8Array {
  milesPieces ??= pieces(MAX_SEARCH_MILES * 1000 + 1, (k) => milesText(k / 1000));
  return milesPieces[Math.round(d * 1000)] ?? jsonPiece(milesText(roundMiles(d)));
}
/** `<roundBearing(b)>` */
function bearingPiece(b: number): Uint8Array {
  bearingPieces ??= pieces(3600, (k) => String(k / 10));
  return bearingPieces[Math.round(b * 10)] ?? jsonPiece(String(roundBearing(b)));
}

/** `,"direction":"<direction>","categories":` */
const directions = new Map<string, Uint8Array>();
function directionPiece(direction: string): Uint8Array {
  let piece = directions.get(direction);
  if (piece === undefined) directions.set(direction, (piece = jsonPiece(`,"direction":${JSON.stringify(direction)},"categories":`)));
  return piece;
}

/** The fields after a finding's categories, by score, flags and programs: `,"overall_score":...,"programs":[...]}`. */
const PROGRAM_SPAN = PROGRAM_BITS + 1;
const tails: Uint8Array[] = [];
function tailPiece(score: number, bits: number, active: boolean): Uint8Array {
  const significant = (bits & SITE_BIT.significant) !== 0;
  const programs = bits & PROGRAM_BITS;
  // one place per (score, the two flags, programs); a score outside 0-100 would be written uncached
  const key = score >= 0 && score <= 100 ? ((score * 2 + (significant ? 1 : 0)) * 2 + (active ? 1 : 0)) * PROGRAM_SPAN + programs : -1;
  const cached = tails[key];
  if (cached !== undefined) return cached;
  const json = JSON.stringify({ overall_score: score, significant_violation: significant, active_enforcement: active, programs: programList(siteFactsOfBits(programs)) });
  const piece = jsonPiece(`,${json.slice(1)}`);
  if (key >= 0) tails[key] = piece;
  return piece;
}

/**
 * `{"data": <site report>, "meta": meta}` as UTF-8 JSON: the same bytes as JSON.stringify of the
 * report `buildSiteReport` makes, encoded, without making the findings objects. A dense site lists
 * over a thousand facilities; each is written from the spatial index's arrays (its name and address
 * copied as bytes). A site report request cost about a tenth less server time than with the
 * findings made objects and stringified (bench-ab at the densest metro's seed 5: 1.11).
 */
export function siteReportJson(index: FacilityIndex, spatial: SpatialIndex, q: SiteQuery, meta: unknown): Uint8Array {
  const { report, listed } = siteReportParts(index, spatial, q);
  const text = JSON.stringify({ data: report, meta });
  const cut = text.indexOf(EMPTY_FINDINGS) + EMPTY_FINDINGS.length - 1;
  const out = new JsonBytes();
  out.raw(text.slice(0, cut));
  writeFindings(out, spatial, listed);
  out.raw(text.slice(cut));
  return out.done();
}

function writeFindings(out: JsonBytes, s: SpatialIndex, listed: readonly Listed[]): void {
  // pieces that depend on the index or the report, made once per report
  const states = s.states.map((st) => jsonPiece(`,"fac_state":${JSON.stringify(st)},"fac_zip":`));
  const categories = new Map<Listing, Uint8Array>();
  const f = new FindingColumns(s, listed);
  const { text, record } = f;
  for (let i = 0; i < listed.length; i++) {
    const { distance, bearing, listing } = listed[i]!;
    if (i > 0) out.ascii(',');
    out.bytes(HEAD);
    const other = record.idOther.size === 0 ? undefined : record.idOther.get(i);
    if (other === undefined) out.paddedDigits(record.idNum[i]!, record.idLen[i]!);
    else out.text(other);
    out.bytes(NAME);
    const from = f.addrFrom[i]!, to = f.addrTo[i]!;
    out.utf8(text, f.nameFrom[i]!, from);
    // street, city and ZIP, split where textsOf splits them (a missing part is empty)
    const a = addressPartEnd(text, from, to);
    const cityFrom = Math.min(a + 1, to);
    const b = addressPartEnd(text, cityFrom, to);
    out.bytes(STREET);
    out.utf8(text, from, a);
    out.bytes(CITY);
    out.utf8(text, cityFrom, b);
    out.bytes(states[record.state[i]!]!);
    out.utf8(text, Math.min(b + 1, to), to);
    out.bytes(milesPiece(distance));
    out.bytes(bearingPiece(bearing));
    out.bytes(directionPiece(directionOf(distance, bearing)));
    let c = categories.get(listing);
    if (c === undefined) categories.set(listing, (c = jsonPiece(JSON.stringify(listing.keys))));
    out.bytes(c);
    out.bytes(tailPiece(record.score[i]!, record.site[i]!, (record.flags[i]! & 1) === 1));
  }
  f.release();
}
