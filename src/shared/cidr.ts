import ipaddr from 'ipaddr.js';
import { isIP } from 'node:net';

/** Every address as IPv6 (ipaddr.js), IPv4 as IPv4-mapped IPv6, so one comparison serves both families. */
export type Ip = ipaddr.IPv6;
export type Cidr = { net: Ip; bits: number };

/** IPv4 or IPv6 text (brackets and a zone allowed) -> the address as IPv6; null when it is not an address. */
export function parseIp(text: string): Ip | null {
  let s = text.trim();
  if (s.startsWith('[') && s.includes(']')) s = s.slice(1, s.indexOf(']'));
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  // node's isIP is the gate: a dotted quad only, where ipaddr.js would also take 127.1 or 0x7f.0.0.1
  if (isIP(s) === 0) return null;
  const a = ipaddr.parse(s);
  return a.kind() === 'ipv4' ? (a as ipaddr.IPv4).toIPv4MappedAddress() : (a as ipaddr.IPv6);
}

/** "10.0.0.0/8", "fd00::/8", or a bare address (a /32 or /128). Throws on anything else. */
export function parseCidr(text: string): Cidr {
  const [addr, len, ...rest] = text.trim().split('/');
  const net = parseIp(addr ?? '');
  if (!net || rest.length > 0) throw new Error(`not a CIDR: "${text}"`);
  const v4only = isIP(addr!.trim()) === 4;
  const max = v4only ? 32 : 128;
  const n = len === undefined ? max : Number(len);
  if (!Number.isInteger(n) || n < 0 || n > max || (len !== undefined && !/^\d+$/.test(len))) throw new Error(`not a CIDR: "${text}"`);
  return { net, bits: v4only ? n + 96 : n };
}

export function inCidr(ip: Ip, c: Cidr): boolean {
  return ip.match(c.net, c.bits);
}

/** An address in its own family (an IPv4-mapped IPv6 address as IPv4), for per-request checks. */
export type Addr = ipaddr.IPv4 | ipaddr.IPv6;

/** Like parseIp, without mapping IPv4 into IPv6 (ipaddr.js's parse of IPv4 is the fast one). */
export function parseAddr(text: string): Addr | null {
  let s = text.trim();
  if (s.startsWith('[') && s.includes(']')) s = s.slice(1, s.indexOf(']'));
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  const kind = isIP(s);
  if (kind === 4) return ipaddr.IPv4.parse(s);
  return kind === 6 ? ipaddr.process(s) : null;
}

/** A CIDR as a matcher of `Addr`s: IPv4 ranges (written either way) match IPv4 addresses, the rest IPv6. */
export function addrMatcher(c: Cidr): (a: Addr) => boolean {
  if (c.bits >= 96 && c.net.isIPv4MappedAddress()) {
    const net = c.net.toIPv4Address();
    const bits = c.bits - 96;
    return (a) => a.kind() === 'ipv4' && (a as ipaddr.IPv4).match(net, bits);
  }
  return (a) => a.kind() === 'ipv6' && (a as ipaddr.IPv6).match(c.net, c.bits);
}
