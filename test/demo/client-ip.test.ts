import { describe, expect, it } from 'bun:test';
import { clientResolver } from '../../src/demo/client-ip';
import { parseCidr, parseIp } from '../../src/shared/cidr';
import { makeWorld } from '../helpers';

describe('client address resolution', () => {
  it.each([
    // [trusted, peer, X-Forwarded-For, bucket]
    [[], '198.51.100.1', null, 'ip4:198.51.100.1'],
    [[], '198.51.100.1', '203.0.113.9', 'ip4:198.51.100.1'],
    [['10.0.0.0/8'], '10.0.0.2', '203.0.113.9', 'ip4:203.0.113.9'],
    [['10.0.0.0/8'], '10.0.0.2', '203.0.113.9, 10.3.3.3', 'ip4:203.0.113.9'],
    [['10.0.0.0/8'], '10.0.0.2', 'garbage, 203.0.113.9', 'ip4:203.0.113.9'],
    [['10.0.0.0/8'], '10.0.0.2', '203.0.113.9, garbage', 'ip4:10.0.0.2'],
    [['10.0.0.0/8'], '10.0.0.2', '10.4.4.4, 10.5.5.5', 'ip4:10.4.4.4'],
    [['10.0.0.0/8'], '10.0.0.2', '', 'ip4:10.0.0.2'],
    [['10.0.0.0/8'], '11.0.0.2', '203.0.113.9', 'ip4:11.0.0.2'],
    [['127.0.0.1'], '::ffff:127.0.0.1', '203.0.113.9', 'ip4:203.0.113.9'],
    [['2001:db8::/32'], '2001:db8::5', '2001:db8:ffff:1:2:3:4:5, 2001:0db8::7', 'ip6:2001:db8:ffff:1::/64'],
    [['2001:db8::/32'], '2001:db9::5', '203.0.113.9', 'ip6:2001:db9:0:0::/64'],
    [['10.0.0.0/8'], '10.0.0.2', '[2001:db8::1]', 'ip6:2001:db8:0:0::/64'],
  ])('trusting %j, peer %s with X-Forwarded-For %j is bucket %s', (trusted, peer, xff, bucket) => {
    expect(clientResolver(trusted as string[])(peer, xff)).toBe(bucket);
  });

  it('has no bucket when the peer is unknown or not an address', () => {
    expect(clientResolver(['10.0.0.0/8'])(null, '203.0.113.9')).toBeNull();
    expect(clientResolver([])('not-an-ip', null)).toBeNull();
  });

  it.each(['10.0.0.0/33', '10.0.0/8', 'fd00::/129', 'example.com', '10.0.0.0/8/1', '10.0.0.0/x'])('rejects "%s" as a trusted-proxy CIDR', (cidr) => {
    expect(() => parseCidr(cidr)).toThrow('not a CIDR');
  });

  it('refuses to build the app with a bad trusted-proxy CIDR, so the service fails at start', () => {
    expect(() => makeWorld({ config: { trustedProxies: ['10.0.0.0/40'] } })).toThrow('not a CIDR');
  });

  it('parses IPv6 shorthand and an embedded IPv4 tail', () => {
    expect(parseIp('::1')!.toByteArray()).toEqual([...new Array(15).fill(0), 1]);
    expect(parseIp('64:ff9b::192.0.2.33')!.toByteArray().slice(12)).toEqual([192, 0, 2, 33]);
  });
});
