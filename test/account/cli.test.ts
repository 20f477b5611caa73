import { describe, expect, it } from 'bun:test';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { decodeJwt } from 'jose';
import { cli, startServer, tempIndex } from '../support/process';
import { SECRET } from './support';
import { tempDir } from '../support/temp-dir';

const stateDir = tempDir('account-cli');
const s = ['--state-dir', stateDir];

describe('keys CLI for accounts', () => {
  it('regenerate gives the account a new key at once; the old one is gone from the list', () => {
    const created = JSON.parse(cli(['keys', 'create', '--tier', 'starter', '--json', ...s]).stdout);
    const r = cli(['keys', 'regenerate', created.account_id, '--json', ...s]);
    expect(r.code).toBe(0);
    const fresh = JSON.parse(r.stdout);
    expect(fresh.key).toMatch(/^fcs_live_[0-9A-Za-z]{32}$/);
    expect(fresh.key).not.toBe(created.key);
    const row = (JSON.parse(cli(['keys', 'list', '--json', ...s]).stdout) as any[]).find((a) => a.account_id === created.account_id);
    expect(row.key_prefix).toBe(fresh.key_prefix);
    expect(row.tier).toBe('starter');
  });

  it('create refuses a second account for a subject that already has one', () => {
    expect(cli(['keys', 'create', '--tier', 'free', '--subject', 'auth0|dup', ...s]).code).toBe(0);
    const again = cli(['keys', 'create', '--tier', 'free', '--subject', 'auth0|dup', ...s]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already exists');
  });

  it('token mints an HS256 account JWT with the configured issuer and audience', () => {
    const r = cli(['keys', 'token', '--subject', 'ops-user', '--ttl', '120'], { FCS_JWT_SECRET: SECRET, FCS_JWT_ISSUER: 'fcs-ops', FCS_JWT_AUDIENCE: 'facility-score' });
    expect(r.code).toBe(0);
    const payload = decodeJwt(r.stdout.trim());
    expect(payload).toMatchObject({ sub: 'ops-user', iss: 'fcs-ops', aud: 'facility-score' });
    expect(payload.exp! - payload.iat!).toBe(120);
  });

  it.each([
    ['no secret configured', ['--subject', 'x'], {}, /FCS_JWT_SECRET/],
    ['no subject', [], { FCS_JWT_SECRET: SECRET }, /--subject is required/],
    ['a ttl that is not a number of seconds', ['--subject', 'x', '--ttl', '1h'], { FCS_JWT_SECRET: SECRET }, /--ttl/],
    // The verifier's own checks: a token serve would refuse (or could not check) is never minted.
    ['a secret shorter than serve accepts', ['--subject', 'x'], { FCS_JWT_SECRET: 'short-secret' }, /FCS_JWT_SECRET must be at least 32 bytes/],
    ['a ttl past the maximum token lifetime serve accepts (24 h by default)', ['--subject', 'x', '--ttl', '90000'], { FCS_JWT_SECRET: SECRET }, /between 1 and 86400/],
    ['a ttl past a configured maximum lifetime', ['--subject', 'x', '--ttl', '7200'], { FCS_JWT_SECRET: SECRET, FCS_JWT_MAX_LIFETIME_SEC: '3600' }, /between 1 and 3600/],
    ['a public-key algorithm with a shared secret', ['--subject', 'x'], { FCS_JWT_SECRET: SECRET, FCS_JWT_ALGORITHMS: 'RS256' }, /cannot be used with a shared secret/],
  ])('token with %s fails with a one-line reason', (_name, args, env, message) => {
    const r = cli(['keys', 'token', ...args], env as Record<string, string>);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(message);
  });
});

describe('serve with account login from env (the wiring, end to end)', () => {
  it('a token minted by `keys token` gets a key from the running server, and the key works', async () => {
    const { dir, indexPath } = tempIndex();
    const env = { FCS_JWT_SECRET: SECRET, FCS_SIGNUP_TIER: 'starter' };
    const server = await startServer(['--index', indexPath, '--state-dir', join(dir, 'state')], env);
    try {
      const token = cli(['keys', 'token', '--subject', 'e2e-user'], env).stdout.trim();
      const res = await fetch(`${server.base}/api/v1/account/key`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(201);
      const { data } = (await res.json()) as any;
      expect(data.tier).toBe('starter');
      expect((await fetch(`${server.base}/api/v1/facility/990000000001`, { headers: { 'x-api-key': data.key } })).status).toBe(200);
      const again = await fetch(`${server.base}/api/v1/account/key`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
      expect(again.status).toBe(409);
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a secret that is too short stops serve at start with the reason', async () => {
    const { dir, indexPath } = tempIndex();
    try {
      const r = cli(['serve', '--port', '0', '--host', '127.0.0.1', '--index', indexPath, '--state-dir', join(dir, 'state')], { FCS_JWT_SECRET: 'short' });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('at least 32 bytes');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
