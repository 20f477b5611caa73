import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Who already listens on a TCP port, read from the kernel's socket tables (/proc/net/tcp and tcp6)
 * rather than by binding a socket of our own: a test listener, however brief, accepts the
 * connections of a client polling a starting server and resets them when it closes.
 */

// a table row's state column: 0A is LISTEN (the kernel's tcp_states.h)
const LISTEN = '0A';
const WILDCARDS = new Set(['0.0.0.0', '::']);

/**
 * An IP literal in one spelling: IPv4 dotted, IPv6 as the URL standard writes it (compressed, lower
 * case), an IPv4 address mapped into IPv6 as the IPv4 address; null for anything else (a host name).
 */
export function canonicalAddress(ip: string): string | null {
  // node's isIP is the gate: a dotted quad only, where ipaddr.js would also take 127.1
  if (isIP(ip) === 0) return null;
  return spelled(ipaddr.parse(ip));
}

/** ipaddr.js writes IPv6 compressed and lower case (RFC 5952), as the URL standard does. */
function spelled(a: ipaddr.IPv4 | ipaddr.IPv6): string {
  return a.kind() === 'ipv6' && (a as ipaddr.IPv6).isIPv4MappedAddress() ? (a as ipaddr.IPv6).toIPv4Address().toString() : a.toString();
}

/** A table row's address (hex; each 32-bit word in the host's byte order, little-endian on the targets we ship). */
function rowAddress(hex: string): string {
  const bytes = hex.match(/.{8}/g)!.flatMap((word) => word.match(/../g)!.reverse().map((b) => Number.parseInt(b, 16)));
  return spelled(ipaddr.fromByteArray(bytes));
}

/** The addresses listening on TCP `port`, or null where the tables cannot be read (not Linux). */
export function listenersOn(port: number, read: (path: string) => string = (p) => readFileSync(p, 'latin1')): string[] | null {
  const out: string[] = [];
  let readAny = false;
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = read(table);
    } catch {
      continue; // no IPv6 table on a host without IPv6
    }
    readAny = true;
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 4 || cols[3] !== LISTEN) continue;
      const [address, portHex] = cols[1]!.split(':');
      if (Number.parseInt(portHex!, 16) === port) out.push(rowAddress(address!));
    }
  }
  return readAny ? out : null;
}

/** Whether a listener on `listener` takes connections meant for a server on `host` (canonical addresses: either a wildcard, or the same). */
export function sharesAddress(host: string, listener: string): boolean {
  return WILDCARDS.has(host) || WILDCARDS.has(listener) || host === listener;
}
