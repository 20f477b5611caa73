import { isIP } from 'node:net';

/**
 * Who is calling, for the demo's per-IP limit. The socket peer is the truth; `X-Forwarded-For` is
 * believed only from peers inside the configured trusted-proxy CIDRs, read right to left, each
 * trusted hop skipped, so a client can prepend whatever it likes and still be keyed by the
 * address the last trusted proxy saw.
 */

/** Socket peer address of a request, or null when unknown (in-process `app.handle`, Unix socket). */
export type PeerAddress = (request: Request, server: { requestIP(r: Request): { address: string } | null } | null) => string | null;

/** Default: the peer Bun's server saw. */
export const socketPeer: PeerAddress = (request, server) => server?.requestIP(request)?.address ?? null;

type Cidr = { bytes: Uint8Array; bits: number };

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

const isMappedV4 = (b: Uint8Array) => b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff;

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

/**
 * The limiter bucket of an address: IPv4 per address; IPv6 per /64, because one subscriber
 * usually holds a whole /64 and could otherwise take a fresh address for every request.
 */
export function bucketOf(ip: Uint8Array): string {
  if (isMappedV4(ip)) return `ip4:${ip[12]}.${ip[13]}.${ip[14]}.${ip[15]}`;
  const words: string[] = [];
  for (let i = 0; i < 8; i += 2) words.push(((ip[i]! << 8) | ip[i + 1]!).toString(16));
  return `ip6:${words.join(':')}::/64`;
}

/** Resolves the client address from the peer and `X-Forwarded-For` under a fixed trusted-proxy list. */
export function clientResolver(trustedProxies: readonly string[]) {
  const trusted = trustedProxies.map(parseCidr);
  const isTrusted = (ip: Uint8Array) => trusted.some((c) => inCidr(ip, c));
  /** The bucket key for this request, or null when the peer is unknown. */
  return (peer: string | null, forwardedFor: string | null): string | null => {
    const peerIp = peer === null ? null : parseIp(peer);
    if (!peerIp) return null;
    let client = peerIp;
    if (forwardedFor !== null && trusted.length > 0 && isTrusted(peerIp)) {
      const hops = forwardedFor.split(',').map((h) => h.trim()).filter(Boolean);
      for (let i = hops.length - 1; i >= 0; i--) {
        const hop = parseIp(hops[i]!);
        // A malformed entry ends the walk: what a trusted hop said before it is all we know.
        if (!hop) break;
        client = hop;
        if (!isTrusted(hop)) break;
      }
    }
    return bucketOf(client);
  };
}
