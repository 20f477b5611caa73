import { isIP } from 'node:net';

/** IP addresses and CIDR ranges as 16 bytes (IPv4 as IPv4-mapped IPv6), so one comparison serves both families. */

export type Cidr = { bytes: Uint8Array; bits: number };

/** IPv4 or IPv6 text -> 16 bytes (IPv4 as IPv4-mapped IPv6); null when it is not an address. */
export function parseIp(text: string): Uint8Array | null {
  let s = text.trim();
  if (s.startsWith('[') && s.includes(']')) s = s.slice(1, s.indexOf(']'));
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  const kind = isIP(s);
  if (kind === 4) return v4(s);
  if (kind !== 6) return null;
  const out = new Uint8Array(16);
  let head = s;
  let tail = '';
  const dc = s.indexOf('::');
  if (dc >= 0) {
    head = s.slice(0, dc);
    tail = s.slice(dc + 2);
  }
  const groups = (part: string) => {
    const words: number[] = [];
    for (const g of part.split(':').filter(Boolean)) {
      if (g.includes('.')) {
        const b = v4(g)!;
        words.push((b[12]! << 8) | b[13]!, (b[14]! << 8) | b[15]!);
      } else words.push(parseInt(g, 16));
    }
    return words;
  };
  const h = groups(head);
  const t = groups(tail);
  const words = [...h, ...new Array(8 - h.length - t.length).fill(0), ...t];
  words.forEach((w, i) => {
    out[i * 2] = w >> 8;
    out[i * 2 + 1] = w & 0xff;
  });
  return out;
}

function v4(s: string): Uint8Array {
  const out = new Uint8Array(16);
  out[10] = 0xff;
  out[11] = 0xff;
  s.split('.').forEach((p, i) => (out[12 + i] = Number(p)));
  return out;
}

/** "10.0.0.0/8", "fd00::/8", or a bare address (a /32 or /128). Throws on anything else. */
export function parseCidr(text: string): Cidr {
  const [addr, len, ...rest] = text.trim().split('/');
  const bytes = parseIp(addr ?? '');
  if (!bytes || rest.length > 0) throw new Error(`not a CIDR: "${text}"`);
  const v4only = isIP(addr!.trim()) === 4;
  const max = v4only ? 32 : 128;
  const n = len === undefined ? max : Number(len);
  if (!Number.isInteger(n) || n < 0 || n > max || (len !== undefined && !/^\d+$/.test(len))) throw new Error(`not a CIDR: "${text}"`);
  return { bytes, bits: v4only ? n + 96 : n };
}

export function inCidr(ip: Uint8Array, c: Cidr): boolean {
  const full = c.bits >> 3;
  for (let i = 0; i < full; i++) if (ip[i] !== c.bytes[i]) return false;
  const rem = c.bits & 7;
  if (rem === 0) return true;
  const mask = (0xff << (8 - rem)) & 0xff;
  return (ip[full]! & mask) === (c.bytes[full]! & mask);
}
