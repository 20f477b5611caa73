import { isIP } from 'node:net';
import { inCidr, parseCidr, parseIp } from '../../shared/cidr';

type Cidr = ReturnType<typeof parseCidr>;

/**
 * The operator's allow-list of webhook targets (`--webhook-allow`, FCS_WEBHOOK_ALLOW): host names
 * (`hooks.example.com`, or `*.example.com` for any subdomain) and IP addresses / CIDRs. An IP
 * literal in a URL must fall in a listed CIDR; a host name must be listed by name. Host names are
 * never resolved and checked against CIDRs: the list names exactly what may be called.
 */
export class WebhookAllowList {
  private readonly names: string[] = [];
  private readonly suffixes: string[] = [];
  private readonly cidrs: Cidr[] = [];

  constructor(readonly entries: readonly string[]) {
    for (const raw of entries) {
      const e = raw.trim().toLowerCase();
      if (e === '') continue;
      if (isIP(e.split('/')[0]!) !== 0) this.cidrs.push(parseCidr(e));
      else if (e.startsWith('*.')) this.suffixes.push(e.slice(1));
      else if (/^[a-z0-9.-]+$/.test(e)) this.names.push(e);
      else throw new Error(`webhook allow-list: "${raw}" is neither a host name, *.domain, an IP address nor a CIDR`);
    }
  }

  get empty(): boolean {
    return this.names.length + this.suffixes.length + this.cidrs.length === 0;
  }

  /** Why `url` may not be a target, or null when it may. */
  refusal(url: string): string | null {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return 'webhook_url is not a valid absolute URL';
    }
    if (u.protocol !== 'https:' && u.protocol !== 'http:') return 'webhook_url must be an http or https URL';
    if (u.username || u.password) return 'webhook_url must not carry credentials';
    if (this.empty) return 'webhooks are disabled on this server: the operator allows no targets (setting --webhook-allow / FCS_WEBHOOK_ALLOW)';
    const host = u.hostname.toLowerCase().replace(/^\[|\]$/g, '');
    const ip = isIP(host) !== 0 ? parseIp(host) : null;
    const allowed = ip ? this.cidrs.some((c) => inCidr(ip, c)) : this.names.includes(host) || this.suffixes.some((s) => host.endsWith(s));
    return allowed ? null : `webhook_url host ${host} is not in the operator's allow-list (setting --webhook-allow / FCS_WEBHOOK_ALLOW)`;
  }
}
