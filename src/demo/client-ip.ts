import { addrMatcher, parseAddr, parseCidr, type Addr } from '../shared/cidr';

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

/**
 * The limiter bucket of an address: IPv4 per address; IPv6 per /64, because one subscriber
 * usually holds a whole /64 and could otherwise take a fresh address for every request.
 */
export function bucketOf(ip: Addr): string {
  if (ip.kind() === 'ipv4') return `ip4:${ip.toString()}`;
  return `ip6:${(ip as { parts: number[] }).parts.slice(0, 4).map((w) => w.toString(16)).join(':')}::/64`;
}

/** Resolves the client address from the peer and `X-Forwarded-For` under a fixed trusted-proxy list. */
export function clientResolver(trustedProxies: readonly string[]) {
  const trusted = trustedProxies.map((t) => addrMatcher(parseCidr(t)));
  const isTrusted = (ip: Addr) => trusted.some((matches) => matches(ip));
  /** The bucket key for this request, or null when the peer is unknown. */
  return (peer: string | null, forwardedFor: string | null): string | null => {
    const peerIp = peer === null ? null : parseAddr(peer);
    if (!peerIp) return null;
    let client = peerIp;
    if (forwardedFor !== null && trusted.length > 0 && isTrusted(peerIp)) {
      const hops = forwardedFor.split(',').map((h) => h.trim()).filter(Boolean);
      for (let i = hops.length - 1; i >= 0; i--) {
        const hop = parseAddr(hops[i]!);
        // A malformed entry ends the walk: what a trusted hop said before it is all we know.
        if (!hop) break;
        client = hop;
        if (!isTrusted(hop)) break;
      }
    }
    return bucketOf(client);
  };
}
