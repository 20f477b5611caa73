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

  it('comes from --webhook-allow or FCS_WEBHOOK_ALLOW (the flag wins), with the delivery timings from the environment', () => {
    expect(configFrom({ FCS_WEBHOOK_ALLOW: 'a.example, 10.0.0.0/8' }, {}).webhookAllow).toEqual(['a.example', '10.0.0.0/8']);
    expect(configFrom({ FCS_WEBHOOK_ALLOW: 'a.example' }, { 'webhook-allow': 'b.example' }).webhookAllow).toEqual(['b.example']);
    expect(configFrom({}, {}).webhookAllow).toEqual([]);
    const c = configFrom({ FCS_WEBHOOK_TIMEOUT_MS: '1000', FCS_WEBHOOK_LEASE_MS: '3000', FCS_WEBHOOK_RETRY_BASE_MS: '100', FCS_WEBHOOK_GIVE_UP_MS: '5000', FCS_WEBHOOK_POLL_MS: '50', FCS_WEBHOOK_RETRY_MAX_MS: '400' }, {});
    expect([c.webhookTimeoutMs, c.webhookLeaseMs, c.webhookRetryBaseMs, c.webhookGiveUpMs, c.webhookPollMs, c.webhookRetryMaxMs]).toEqual([1000, 3000, 100, 5000, 50, 400]);
    expect(() => configFrom({ FCS_WEBHOOK_TIMEOUT_MS: '5000', FCS_WEBHOOK_LEASE_MS: '4000' }, {})).toThrow('webhookLeaseMs must exceed webhookTimeoutMs');
  });
});
