import { registryIdAt, type SpatialIndex } from '../area/spatial-index';
import { findingOf, placedRecord, ProgramLabels, type Listed } from './findings';

/**
 * The findings of a report as JSON bytes, exactly `Buffer.from(JSON.stringify(findings))` of the
 * objects `findingOf` gives, written straight from the spatial index: names and addresses are
 * copied from its UTF-8 bytes (escaped as JSON.stringify escapes), so a dense site's thousands of
 * findings make no string and no object each. A JSON site report spent about half its time
 * building, stringifying and encoding them.
 */
export function findingsJson(spatial: SpatialIndex, site: { lat: number; lng: number }, listed: readonly Listed[]): Uint8Array {
  const w = new JsonBytes(listed.length * 320 + 16);
  const labels = new ProgramLabels();
  const texts = new Map<unknown, string>();
  // the JSON of a value shared by many findings (a state, a direction, a category or program list), written once
  const json = (v: unknown): string => {
    let t = texts.get(v);
    if (t === undefined) texts.set(v, (t = JSON.stringify(v)));
    return t;
  };
  w.ascii('[');
  for (let k = 0; k < listed.length; k++) {
    const l = listed[k]!;
    const p = l.pos;
    if (spatial.idOther.has(p)) {
      // an ID that is not 1-15 digits (ingest rejects those): the general path, for exactness
      w.text(JSON.stringify(findingOf(spatial, site, l, labels)));
      if (k < listed.length - 1) w.ascii(',');
      continue;
    }
    const r = placedRecord(spatial, site, l);
    w.ascii(k === 0 ? '{"registry_id":"' : ',{"registry_id":"');
    w.ascii(registryIdAt(spatial, p));
    w.ascii('","fac_name":"');
    w.escaped(spatial.nameBytes, spatial.nameStart[p]!, spatial.nameStart[p + 1]!);
    const from = spatial.addrStart[p]!, to = spatial.addrStart[p + 1]!, bytes = spatial.addrBytes;
    let a = from;
    while (a < to && bytes[a] !== 0x1f) a++;
    let b = a < to ? a + 1 : to;
    while (b < to && bytes[b] !== 0x1f) b++;
    w.ascii('","fac_street":"');
    w.escaped(bytes, from, a);
    w.ascii('","fac_city":"');
    w.escaped(bytes, Math.min(a + 1, to), b);
    w.ascii('","fac_state":');
    w.text(json(spatial.states[spatial.state[p]!]!));
    w.ascii(',"fac_zip":"');
    w.escaped(bytes, Math.min(b + 1, to), to);
    w.ascii(`","distance_miles":${r.distance_miles},"bearing_degrees":${r.bearing_degrees},"direction":`);
    w.ascii(json(r.direction));
    w.ascii(',"categories":');
    w.ascii(json(l.categories));
    w.ascii(`,"overall_score":${r.score},"significant_violation":${r.significant},"active_enforcement":${r.active},"programs":`);
    w.ascii(json(labels.of(r.bits)));
    w.ascii('}');
  }
  w.ascii(']');
  return w.done();
}

const HEX = '0123456789abcdef';
const encoder = new TextEncoder();
// JSON.stringify's short escapes; every other byte below 0x20 is \u00xx (lower-case hex)
const SHORT: Record<number, string> = { 0x08: '\\b', 0x09: '\\t', 0x0a: '\\n', 0x0c: '\\f', 0x0d: '\\r', 0x22: '\\"', 0x5c: '\\\\' };

/** A growing byte buffer for JSON text. */
class JsonBytes {
  private buf: Uint8Array;
  private at = 0;
  constructor(size: number) {
    this.buf = new Uint8Array(size);
  }
  private room(n: number): void {
    if (this.at + n <= this.buf.length) return;
    const more = new Uint8Array(Math.max(this.buf.length * 2, this.at + n));
    more.set(this.buf.subarray(0, this.at));
    this.buf = more;
  }
  /** Text known to be ASCII (JSON punctuation, numbers, digits). */
  ascii(s: string): void {
    this.room(s.length);
    for (let i = 0; i < s.length; i++) this.buf[this.at++] = s.charCodeAt(i);
  }
  /** Any text, as UTF-8. */
  text(s: string): void {
    this.room(s.length * 3);
    this.at += encoder.encodeInto(s, this.buf.subarray(this.at)).written;
  }
  /** UTF-8 bytes of a string's content, escaped as JSON.stringify escapes (the bytes are valid UTF-8: ingest wrote them from strings). */
  escaped(src: Uint8Array, from: number, to: number): void {
    this.room((to - from) * 6);
    const out = this.buf;
    let at = this.at;
    for (let i = from; i < to; i++) {
      const c = src[i]!;
      if (c >= 0x20 && c !== 0x22 && c !== 0x5c) {
        out[at++] = c;
        continue;
      }
      const e = SHORT[c] ?? `\\u00${HEX[c >> 4]}${HEX[c & 15]}`;
      for (let k = 0; k < e.length; k++) out[at++] = e.charCodeAt(k);
    }
    this.at = at;
  }
  done(): Uint8Array {
    return this.buf.subarray(0, this.at);
  }
}
