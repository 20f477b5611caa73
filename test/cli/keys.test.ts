import { describe, expect, it, spyOn } from 'bun:test';
import { runCli } from '../../src/cli/run';
import { cli } from '../support/process';
import { tempDir } from '../support/temp-dir';

const stateDir = tempDir('keys');
const s = ['--state-dir', stateDir];

describe('keys CLI', () => {
  it('keys create --json prints one JSON object with the key, tier and display prefix', () => {
    const r = cli(['keys', 'create', '--tier', 'platform', '--name', 'Acme ESG', '--json', ...s]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout.trim());
    expect(out.key).toMatch(/^fcs_live_[0-9A-Za-z]{32}$/);
    expect(out.tier).toBe('platform');
    expect(out.key.startsWith(out.key_prefix)).toBe(true);
    expect(out.key_prefix.length).toBeLessThan(out.key.length - 20);
  });

  it('keys list shows the prefix, never the key, and the usage', () => {
    const created = JSON.parse(cli(['keys', 'create', '--tier', 'free', '--json', ...s]).stdout);
    const listed = JSON.parse(cli(['keys', 'list', '--json', ...s]).stdout) as any[];
    const row = listed.find((a) => a.account_id === created.account_id);
    expect(row).toMatchObject({ tier: 'free', key_prefix: created.key_prefix, calls_this_month: 0, effective_limit: 10 });
    expect(JSON.stringify(listed)).not.toContain(created.key);
  });

  it('keys create --print-key prints the key alone on one line, for KEY=$(...) in scripts', () => {
    const r = cli(['keys', 'create', '--tier', 'starter', '--print-key', ...s]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^fcs_live_[0-9A-Za-z]{32}\n$/);
  });

  it('keys create --json and keys list --json name every shared field the same way', () => {
    const created = JSON.parse(cli(['keys', 'create', '--tier', 'starter', '--name', 'Same Names', '--json', ...s]).stdout);
    const row = (JSON.parse(cli(['keys', 'list', '--json', ...s]).stdout) as any[]).find((a) => a.account_id === created.account_id);
    const { key, ...withoutKey } = created;
    expect(Object.keys(withoutKey).every((k) => k in row)).toBe(true);
    expect(row).toMatchObject(withoutKey);
  });

  it('set-tier, set-limit and revoke change the account', () => {
    const { account_id } = JSON.parse(cli(['keys', 'create', '--tier', 'starter', '--json', ...s]).stdout);
    expect(cli(['keys', 'set-tier', account_id, 'enterprise', ...s]).code).toBe(0);
    expect(cli(['keys', 'set-limit', account_id, '1234', ...s]).code).toBe(0);
    expect(cli(['keys', 'revoke', account_id, ...s]).code).toBe(0);
    const row = (JSON.parse(cli(['keys', 'list', '--json', ...s]).stdout) as any[]).find((a) => a.account_id === account_id);
    expect(row).toMatchObject({ tier: 'enterprise', monthly_limit: 1234, key_prefix: null });
    expect(cli(['keys', 'set-limit', account_id, 'default', ...s]).code).toBe(0);
  });

  it.each([
    [['keys', 'create', '--tier', 'gold'], /--tier must be one of/],
    [['keys', 'create'], /--tier must be one of/],
    [['keys', 'set-limit', 'acct_nope', '5'], /no account acct_nope/],
    [['keys', 'frobnicate'], /unknown keys subcommand/],
    [['keys', 'create', '--tier', 'free', '--bogus'], /Unknown option/],
  ])('bad usage %p fails with a one-line reason and exit code 1', (args, message) => {
    const r = cli([...args, ...s]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toContain('    at ');
  });

  it('an unknown command exits 2 with the usage', () => {
    const r = cli(['frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Commands:');
  });

  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])('%s, named like an object property, is an unknown command too', async (name) => {
    const printed = spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect(await runCli([name], {})).toBe(2);
      expect(printed.mock.calls[0]?.[0]).toStartWith(`facility-score: unknown command "${name}"`);
    } finally {
      printed.mockRestore();
    }
  });
});
