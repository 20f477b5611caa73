import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import { inCidr, parseCidr, parseIp, type Cidr, type Ip } from '../../shared/cidr';
import { AppError } from '../../errors';

/** A CIDR and the address family it admits: 4 for IPv4 (and IPv4-mapped IPv6), 6 for the rest of IPv6. */
type Range = Cidr & { family: 4 | 6 };

const HELP = 'entries are host names (hooks.example.com), *.example.com (any one label before a domain of two or more labels), IP addresses and CIDRs';
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
/** Any whitespace, control or invisible formatting character (zero-width spaces, BOM, bidi marks). */
const INVISIBLE = /[\s\p{Cc}\p{Cf}]/u;
const MAX_URL_LENGTH = 2000;

/**
 * Addresses that reach this machine or its link rather than a network (0.0.0.0 connects to the local
 * host on Linux; 169.254.169.254 is a cloud's metadata service). A broad entry (0.0.0.0/0, ::/0)
 * does not admit them: only an entry inside the same range does (127.0.0.1, 127.0.0.0/8, ::1).
 */
const LOCAL: Range[] = [
  { ...parseCidr('0.0.0.0/8'), family: 4 },
  { ...parseCidr('127.0.0.0/8'), family: 4 },
  { ...parseCidr('169.254.0.0/16'), family: 4 },
  { ...parseCidr('::/96'), family: 6 }, // ::, ::1 and the deprecated IPv4-compatible forms
  { ...parseCidr('fe80::/10'), family: 6 },
];

const isMapped = (ip: Ip) => ip.isIPv4MappedAddress();

/** `inner` lies wholly inside `outer` (same family, at least as long a prefix, network inside). */
const within = (inner: Range, outer: Range) => inner.family === outer.family && inner.bits >= outer.bits && inCidr(inner.net, outer);

/** An IP or CIDR entry, strictly: dotted-quad IPv4 or IPv6 without a zone, prefix in range. */
function rangeOf(entry: string, raw: string): Range {
  const [addr = '', len, ...rest] = entry.split('/');
  const kind = addr.includes('%') ? 0 : isIP(addr);
  const max = kind === 4 ? 32 : 128;
  if (kind === 0 || rest.length > 0 || (len !== undefined && (!/^\d{1,3}$/.test(len) || Number(len) > max))) {
    throw new Error(`webhook allow-list: "${raw}" is not a CIDR or IP address (IPv4 a.b.c.d[/0-32], IPv6 without a zone [/0-128]); ${HELP}`);
  }
  const cidr = parseCidr(entry);
  // An IPv6 entry inside ::ffff:0:0/96 names IPv4 addresses explicitly; any other IPv6 entry, ::/0 included, admits none.
  const family = kind === 4 || (cidr.bits >= 96 && isMapped(cidr.net)) ? 4 : 6;
  return { ...cidr, family };
}

/** A host name entry as the URL parser would write it (IDNA to punycode, lower case), or null. */
function hostNameOf(entry: string): string | null {
  const ascii = domainToASCII(entry);
  if (!ascii || ascii.length > 253) return null;
  const labels = ascii.split('.');
  // A last label of digits or 0x-hex makes the URL parser read the whole host as an IPv4 address ("1.2.3" is 1.2.0.3).
  if (!labels.every((l) => LABEL.test(l)) || /^(\d+|0x[0-9a-f]*)$/.test(labels.at(-1)!)) return null;
  return ascii;
}

/**
 * The operator's allow-list of webhook targets (`--webhook-allow`, FCS_WEBHOOK_ALLOW): host names
 * (`hooks.example.com`, or `*.example.com` for any one label before it) and IP addresses / CIDRs.
 * An IP literal in a URL must fall in a listed CIDR of its family; a host name must be listed by
 * name. Host names are never resolved and checked against CIDRs: the list names exactly what may be
 * called. Every entry is checked when the list is built: a bad one stops the configuration, named.
 */
export class WebhookAllowList {
  private readonly names = new Set<string>();
  /** `*.example.com` kept as `example.com`. */
  private readonly wildcards = new Set<string>();
  private readonly ranges: Range[] = [];

  constructor(readonly entries: readonly string[]) {
    for (const raw of entries) {
      let e = raw.trim().toLowerCase();
      if (e === '') continue;
      if (/^\[[^\]]*\](\/\d+)?$/.test(e)) e = e.replace(/^\[|\]/g, '');
      if (e.includes(':') || /^[\d./]+$/.test(e)) this.ranges.push(rangeOf(e, raw));
      else if (e.startsWith('*.')) {
        const domain = hostNameOf(e.slice(2));
        if (!domain || !domain.includes('.')) throw new Error(`webhook allow-list: "${raw}" is not a valid *.domain (one leading "*." and a domain of two or more labels); ${HELP}`);
        this.wildcards.add(domain);
      } else {
        const name = hostNameOf(e);
        if (!name) throw new Error(`webhook allow-list: "${raw}" is neither a host name, *.domain, an IP address nor a CIDR; ${HELP}`);
        this.names.add(name);
      }
    }
  }

  get empty(): boolean {
    return this.names.size + this.wildcards.size + this.ranges.length === 0;
  }

  /** Whether a URL's host (as the URL parser writes it: lower case, punycode, IPv6 in brackets) is listed. */
  allows(urlHost: string): boolean {
    const host = urlHost.replace(/^\[|\]$/g, '').replace(/\.$/, '');
    if (isIP(host) === 0) {
      const dot = host.indexOf('.');
      return this.names.has(host) || (dot > 0 && this.wildcards.has(host.slice(dot + 1)));
    }
    const net = parseIp(host)!;
    const ip: Range = { net, bits: 128, family: isMapped(net) ? 4 : 6 };
    const local = LOCAL.find((r) => within(ip, r));
    return this.ranges.some((r) => r.family === ip.family && inCidr(net, r) && (!local || within(r, local)));
  }

  /** Why `url` may not be a target, or null when it may (checked again before every delivery). */
  refusal(url: string): string | null {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return 'webhook_url must be a valid absolute URL, got text that does not parse as one';
    }
    if (u.protocol !== 'https:' && u.protocol !== 'http:') return 'webhook_url must be an http or https URL, got another scheme';
    if (u.username || u.password) return 'webhook_url must be a URL without credentials, got one with a user name or password';
    if (this.empty) return 'webhooks are disabled on this server: the operator allows no targets (setting --webhook-allow / FCS_WEBHOOK_ALLOW)';
    return this.allows(u.hostname) ? null : `webhook_url must be a URL whose host the operator's allow-list names (setting --webhook-allow / FCS_WEBHOOK_ALLOW), got host ${u.hostname}`;
  }

  /**
   * A caller's webhook URL as it is stored and called: the WHATWG parse's `href` (lower-case scheme
   * and host, IDNA host in punycode, full-width letters folded, default port dropped), or a 422
   * naming the field. Refused rather than repaired: whitespace or control characters anywhere (a
   * leading space or a tab is a paste error, not a URL), a scheme without `//` (`http:host/`, which
   * the parser would silently accept), credentials, a #fragment (never sent), and hosts this list
   * does not name.
   */
  normalise(raw: string): string {
    const refuse = (what: string, got: string) => new AppError('VALIDATION_ERROR', `webhook_url must be ${what}, got ${got}`);
    if (INVISIBLE.test(raw)) throw refuse('an absolute http(s) URL without spaces or control characters', 'text containing one');
    if (!/^https?:\/\/[^/\\]/i.test(raw)) throw refuse('an absolute URL starting with http:// or https:// and a host', 'text that does not start so');
    if (raw.includes('#')) throw refuse('a URL without a #fragment (it is never sent to the receiver)', 'one with a fragment');
    const refusal = this.refusal(raw);
    if (refusal) throw new AppError('VALIDATION_ERROR', refusal);
    const href = new URL(raw).href;
    if (href.length > MAX_URL_LENGTH) throw refuse(`at most ${MAX_URL_LENGTH} characters once normalised`, `${href.length}`);
    return href;
  }
}
