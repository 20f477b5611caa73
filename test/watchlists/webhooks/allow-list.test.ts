import { describe, expect, it } from 'bun:test';
import { configFrom } from '../../../src/cli/options';
import { WebhookAllowList } from '../../../src/watchlists/webhooks/allow-list';

describe('the webhook allow-list', () => {
  const allow = new WebhookAllowList(['hooks.example.com', '*.partner.example', '10.20.0.0/16', '::1']);

  it.each([
    ['https://hooks.example.com/x', true],
    ['https://HOOKS.example.com:8443/x', true],
    ['https://a.partner.example/x', true],
    ['https://partner.example/x', false],
    ['https://evilpartner.example/x', false],
    ['https://hooks.example.com.evil.net/x', false],
    ['http://10.20.3.4/x', true],
    ['http://10.21.0.1/x', false],
    ['http://[::1]:9000/x', true],
    ['http://127.0.0.1/x', false],
  ])('%s is allowed: %s', (url, ok) => {
    expect(allow.refusal(url) === null).toBe(ok);
  });

  it('an empty list refuses everything, naming the setting', () => {
    const refusal = new WebhookAllowList([]).refusal('https://hooks.example.com/x');
    expect(refusal).toContain('--webhook-allow');
    expect(refusal).toContain('FCS_WEBHOOK_ALLOW');
  });

  it('an entry that is neither a name nor an address stops the configuration', () => {
    expect(() => new WebhookAllowList(['hooks example'])).toThrow('neither a host name');
    expect(() => new WebhookAllowList(['10.0.0.0/99'])).toThrow('not a CIDR');
  });

  it.each([
    ['*.', 'a wildcard with no domain'],
    ['*.*.com', 'a wildcard of two labels'],
    ['*.com', 'a wildcard over a top-level domain'],
    ['a.*.example.com', 'a wildcard not in the leading label'],
    ['1.2.3', 'three parts: the URL parser reads it as 1.2.0.3'],
    ['hooks.0x7f', 'a last label the URL parser reads as a number'],
    ['256.1.1.1', 'an octet over 255'],
    ['01.2.3.4', 'an octet with a leading zero'],
    ['10.0.0.0/33', 'an IPv4 prefix over 32'],
    ['::1/129', 'an IPv6 prefix over 128'],
    ['10.0.0.0/8/8', 'two prefixes'],
    ['fe80::1%eth0', 'an IPv6 zone'],
    ['hooks.example.com:8443', 'a port'],
    ['-hooks.example.com', 'a label starting with a hyphen'],
    ['hooks..example.com', 'an empty label'],
    ['https://hooks.example.com', 'a URL instead of a host'],
    ['hooks_example.com', 'an underscore'],
  ])('the entry %s (%s) stops the configuration with a message naming it', (entry) => {
    expect(() => new WebhookAllowList(['hooks.example.com', entry])).toThrow(`"${entry}"`);
  });

  it('a bad entry stops the configuration at load (FCS_WEBHOOK_ALLOW or --webhook-allow), naming it', () => {
    expect(() => configFrom({ FCS_WEBHOOK_ALLOW: 'hooks.example.com, *.*.com' }, {})).toThrow('webhook allow-list: "*.*.com"');
    expect(() => configFrom({}, { 'webhook-allow': '1.2.3' })).toThrow('webhook allow-list: "1.2.3"');
  });

  it('a wildcard admits exactly one label before its domain', () => {
    const w = new WebhookAllowList(['*.partner.example']);
    expect(w.refusal('https://a.partner.example/x')).toBeNull();
    expect(w.refusal('https://a.b.partner.example/x')).not.toBeNull();
    expect(w.refusal('https://partner.example/x')).not.toBeNull();
  });

  it('a Unicode entry is kept in punycode and matches the URL parser\'s form of the same host, full-width letters included', () => {
    const w = new WebhookAllowList(['bücher.example', 'ＨＯＯＫＳ.example.com']);
    expect(w.refusal('https://bücher.example/x')).toBeNull();
    expect(w.refusal('https://xn--bcher-kva.example/x')).toBeNull();
    expect(w.refusal('https://ｈｏｏｋｓ.example.com/x')).toBeNull();
  });

  describe('IPv6 entries admit no IPv4 address, and no entry admits a local address unless it names one', () => {
    const v6all = new WebhookAllowList(['::/0']);
    it.each([
      ['http://10.0.0.1/x', false],
      ['http://127.0.0.1/x', false],
      ['http://[::ffff:127.0.0.1]/x', false],
      ['http://[::ffff:10.0.0.1]/x', false],
      ['http://[::1]/x', false],
      ['http://[::]/x', false],
      ['http://[fe80::1]/x', false],
      ['http://[2001:db8::1]/x', true],
    ])('::/0 and %s: allowed %s', (url, ok) => {
      expect(v6all.refusal(url) === null).toBe(ok);
    });

    const v4all = new WebhookAllowList(['0.0.0.0/0']);
    it.each([
      ['http://10.0.0.1/x', true],
      ['http://[::ffff:10.0.0.1]/x', true],
      ['http://127.0.0.1/x', false],
      ['http://2130706433/x', false],
      ['http://0.0.0.0/x', false],
      ['http://169.254.169.254/x', false],
      ['http://[2001:db8::1]/x', false],
    ])('0.0.0.0/0 and %s: allowed %s', (url, ok) => {
      expect(v4all.refusal(url) === null).toBe(ok);
    });

    it('a listed loopback address or range admits itself, and only itself', () => {
      const one = new WebhookAllowList(['127.0.0.1']);
      expect(one.refusal('http://127.0.0.1:9000/x')).toBeNull();
      expect(one.refusal('http://[::ffff:127.0.0.1]:9000/x')).toBeNull();
      expect(one.refusal('http://127.0.0.2/x')).not.toBeNull();
      expect(new WebhookAllowList(['127.0.0.0/8']).refusal('http://127.0.0.2/x')).toBeNull();
      expect(new WebhookAllowList(['[::1]']).refusal('http://[::1]/x')).toBeNull();
    });

    it('IPv4 addresses written in IPv6 (::ffff:a.b.c.d/104) are an explicit IPv4 entry', () => {
      const w = new WebhookAllowList(['::ffff:10.0.0.0/104']);
      expect(w.refusal('http://10.0.0.5/x')).toBeNull();
      expect(w.refusal('http://[::ffff:10.0.0.5]/x')).toBeNull();
      expect(w.refusal('http://11.0.0.5/x')).not.toBeNull();
    });
  });

  it('comes from --webhook-allow or FCS_WEBHOOK_ALLOW (the flag wins), with the delivery timings from the environment', () => {
    expect(configFrom({ FCS_WEBHOOK_ALLOW: 'a.example, 10.0.0.0/8' }, {}).webhookAllow).toEqual(['a.example', '10.0.0.0/8']);
    expect(configFrom({ FCS_WEBHOOK_ALLOW: 'a.example' }, { 'webhook-allow': 'b.example' }).webhookAllow).toEqual(['b.example']);
    expect(configFrom({}, {}).webhookAllow).toEqual([]);
    const c = configFrom({ FCS_WEBHOOK_TIMEOUT_MS: '1000', FCS_WEBHOOK_LEASE_MS: '3000', FCS_WEBHOOK_RETRY_BASE_MS: '100', FCS_WEBHOOK_GIVE_UP_MS: '5000', FCS_WEBHOOK_POLL_MS: '50', FCS_WEBHOOK_RETRY_MAX_MS: '400' }, {});
    expect([c.webhookTimeoutMs, c.webhookLeaseMs, c.webhookRetryBaseMs, c.webhookGiveUpMs, c.webhookPollMs, c.webhookRetryMaxMs]).toEqual([1000, 3000, 100, 5000, 50, 400]);
    expect(() => configFrom({ FCS_WEBHOOK_TIMEOUT_MS: '5000', FCS_WEBHOOK_LEASE_MS: '4000' }, {})).toThrow('webhookLeaseMs must exceed webhookTimeoutMs');
  });
});
