import { inCidr, parseCidr, parseIp } from '../shared/cidr';

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

const isMappedV4 = (b: Uint8Array) => b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff;

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
