import { describe, expect, it } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { configFrom } from '../../src/cli/options';
import { withSettingsTable } from '../../src/cli/settings-text';
import { ALL_SETTINGS } from '../../src/settings';
import { ROOT, cli } from '../support/process';

describe('the settings schema is the one source of the settings table, the help and the parser', () => {
  it('the settings table of docs/operations.md is the one scripts/docs-settings.ts writes from the schema', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'operations.md'), 'utf8');
    expect(doc).toBe(withSettingsTable(doc));
  });

  it('serve --help names every flag and every variable of the schema, each on its setting\'s line', () => {
    const r = cli(['serve', '--help']);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    for (const s of ALL_SETTINGS) {
      const line = lines.find((l) => l.includes(` ${s.env.join(', ')} `));
      expect(line, s.key).toBeDefined();
      expect(line).toContain(s.meaning);
      if (s.flag !== '') expect(line).toContain(`--${s.flag}`);
    }
  });

  it.each(ALL_SETTINGS.filter((s) => s.flag !== ''))('serve reads --$flag and $env.0 into the same setting, the flag winning', (s) => {
    const [fromEnv, fromFlag] = SAMPLES[s.key]!;
    const read = (c: ReturnType<typeof configFrom>) => (s.group === 'jwt' ? (c.jwt as Record<string, unknown>)[s.key] : (c as Record<string, unknown>)[s.key]);
    const jwtBase = s.group === 'jwt' && s.key !== 'jwksUrl' && s.key !== 'jwksFile' ? { FCS_JWT_SECRET: 'x'.repeat(32) } : {};
    expect(read(configFrom({ ...jwtBase, [s.env[0]!]: fromEnv.text }, {}))).toEqual(fromEnv.value);
    expect(read(configFrom({ ...jwtBase, [s.env[0]!]: fromEnv.text }, { [s.flag]: fromFlag.text }))).toEqual(fromFlag.value);
  });
});

/** Per flagged setting: a value given through its variable, then one through its flag. */
const v = (text: string | true, value: unknown) => ({ text, value });
const SAMPLES: Record<string, [{ text: string | true; value: unknown }, { text: string | true; value: unknown }]> = {
  port: [v('9001', 9001), v('9002', 9002)],
  host: [v('127.0.0.1', '127.0.0.1'), v('::1', '::1')],
  reusePort: [v('0', false), v(true, true)],
  indexPath: [v('/srv/a.sqlite', '/srv/a.sqlite'), v('/srv/b.sqlite', '/srv/b.sqlite')],
  stateDir: [v('/var/a', '/var/a'), v('/var/b', '/var/b')],
  reportCacheDir: [v('/cache/a', '/cache/a'), v('off', 'off')],
  reportCacheMaxMb: [v('200', 200), v('50', 50)],
  reportCacheMemoryMb: [v('0', 0), v('16', 16)],
  reportCacheMinFreeMb: [v('0', 0), v('512', 512)],
  renderWorkers: [v('2', 2), v('3', 3)],
  renderQueue: [v('0', 0), v('40', 40)],
  heavyPerAccount: [v('1', 1), v('4', 4)],
  compressMinBytes: [v('0', 0), v('4096', 4096)],
  redisUrl: [v('redis://a:6379', 'redis://a:6379'), v('redis://b:6379', 'redis://b:6379')],
  corsOrigins: [v('https://a.test, https://b.test', ['https://a.test', 'https://b.test']), v('https://c.test', ['https://c.test'])],
  trustedProxies: [v('10.0.0.0/8', ['10.0.0.0/8']), v('192.168.0.1,127.0.0.1', ['192.168.0.1', '127.0.0.1'])],
  signupTier: [v('starter', 'starter'), v('platform', 'platform')],
  webhookAllow: [v('a.example, 10.0.0.0/8', ['a.example', '10.0.0.0/8']), v('b.example', ['b.example'])],
  jwksUrl: [v('https://idp.test/jwks', 'https://idp.test/jwks'), v('https://idp2.test/jwks', 'https://idp2.test/jwks')],
  jwksFile: [v('/etc/a.json', '/etc/a.json'), v('/etc/b.json', '/etc/b.json')],
  issuer: [v('iss-a', 'iss-a'), v('iss-b', 'iss-b')],
  audience: [v('a, b', ['a', 'b']), v('c', ['c'])],
  algorithms: [v('HS256', ['HS256']), v('HS256,HS384', ['HS256', 'HS384'])],
  tierClaim: [v('plan', 'plan'), v('tier', 'tier')],
  tierMap: [v('gold=enterprise', { gold: 'enterprise' }), v('silver=starter', { silver: 'starter' })],
};
