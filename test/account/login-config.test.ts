import { describe, expect, it } from 'bun:test';
import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createJwtVerifier, jwtModeOf } from '../../src/account/jwt';
import type { JwtConfig } from '../../src/jwt-config';
import { configFrom } from '../../src/cli/options';
import { json, makeWorld, type TestWorld } from '../helpers';
import { bearer, claims, SECRET, signHs, signingKey, signWith } from './support';
import { tempDir } from '../support/temp-dir';

const tmp = tempDir('jwks');
const noLog = () => {};

describe('account login not configured', () => {
  const w = makeWorld();

  it.each([
    ['POST', '/api/v1/account/key'],
    ['POST', '/api/v1/account/key/regenerate'],
    ['GET', '/api/v1/account'],
  ])('%s %s is 401 saying account login is not configured, whatever token is sent', async (method, path) => {
    const res = await w.call(path, { method, headers: bearer(await signHs()) });
    expect(res.status).toBe(401);
    const body = await json(res);
    expect(body.error.code).toBe('UNAUTHENTICATED');
    expect(body.error.message).toContain('not configured');
    expect(await w.store.listAccounts()).toEqual([]);
  });
});

describe('tier from the token only when a claim mapping says so', () => {
  const world = (jwt: Partial<JwtConfig>) => makeWorld({ config: { jwt: { secret: SECRET, ...jwt } } });
  const issue = async (w: TestWorld, extra: object) =>
    (await json(await w.call('/api/v1/account/key', { method: 'POST', headers: bearer(await signHs(claims({ sub: 'u', ...extra }))) }))).data;

  it('without a mapping, a tier claim in the token is ignored: the sign-up tier applies', async () => {
    expect((await issue(world({}), { tier: 'enterprise', plan: 'enterprise' })).tier).toBe('free');
  });

  it('with a claim and a value map, the mapped tier is used and kept in step on later calls', async () => {
    const w = world({ tierClaim: 'plan', tierMap: { gold: 'enterprise', silver: 'starter' } });
    const issued = await issue(w, { plan: 'gold' });
    expect(issued.tier).toBe('enterprise');
    const later = await w.call('/api/v1/account', { headers: bearer(await signHs(claims({ sub: 'u', plan: 'silver' }))) });
    expect((await json(later)).data.tier).toBe('starter');
    expect((await w.store.findAccountBySubject('u'))?.tier).toBe('starter'); // data calls see it too
  });

  it('a token without the tier claim leaves the recorded tier alone', async () => {
    const w = world({ tierClaim: 'plan', tierMap: { gold: 'enterprise' } });
    const { account_id } = await issue(w, {});
    await w.store.setTier(account_id, 'platform');
    const res = await w.call('/api/v1/account', { headers: bearer(await signHs(claims({ sub: 'u' }))) });
    expect((await json(res)).data.tier).toBe('platform');
  });

  it.each(['bronze', 'constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'])('a claim value the map does not hold (%s), alone or in a list, is 401 with the usual sentence and changes nothing', async (value) => {
    const w = world({ tierClaim: 'plan', tierMap: { gold: 'enterprise' } });
    const { account_id } = await issue(w, {});
    await w.store.setTier(account_id, 'platform');
    for (const plan of [value, [value, 'other']]) {
      const res = await w.call('/api/v1/account', { headers: bearer(await signHs(claims({ sub: 'u', plan }))) });
      expect(res.status).toBe(401);
      const body = await json(res);
      expect(body.error.code).toBe('UNAUTHENTICATED');
      expect(body.error.message).toBe('Invalid or expired account token: sign in again to get a fresh one');
    }
    const first = await w.call('/api/v1/account/key', { method: 'POST', headers: bearer(await signHs(claims({ sub: 'v', plan: value }))) });
    expect(first.status).toBe(401);
    expect(await w.store.findAccountBySubject('v')).toBeNull();
    expect((await w.store.findAccountBySubject('u'))?.tier).toBe('platform');
  });

  it('a value the operator maps is found even when it is named like an object property', async () => {
    const w = world({ tierClaim: 'plan', tierMap: configFrom({ FCS_JWT_TIER_MAP: 'toString=starter,__proto__=enterprise' }, {}).jwt.tierMap });
    expect((await issue(w, { plan: 'toString' })).tier).toBe('starter');
    const res = await w.call('/api/v1/account', { headers: bearer(await signHs(claims({ sub: 'u', plan: '__proto__' }))) });
    expect((await json(res)).data.tier).toBe('enterprise');
  });

  it('without a value map the claim must name a tier; from a list of roles the highest tier wins', async () => {
    const w = world({ tierClaim: 'roles' });
    expect((await issue(w, { roles: ['reader', 'starter', 'platform'] })).tier).toBe('platform');
  });
});

describe('local JWKS file', () => {
  it('verifies against the file, and picks up a replaced file (rotation without an identity provider)', async () => {
    const [a, b] = [await signingKey('RS256', 'a'), await signingKey('ES256', 'b')];
    const path = join(tmp, 'jwks.json');
    writeFileSync(path, JSON.stringify({ keys: [a.publicJwk] }));
    const w = makeWorld({ config: { jwt: { jwksFile: path } } });
    await w.store.createAccount({ name: '', subject: 'user-1', tier: 'free', monthlyLimit: null, now: w.clock() });
    const get = async (token: string) => (await w.call('/api/v1/account', { headers: bearer(token) })).status;
    expect(await get(await signWith(a, claims({ iss: undefined, aud: undefined })))).toBe(200);
    expect(await get(await signWith(b))).toBe(401);

    writeFileSync(path, JSON.stringify({ keys: [b.publicJwk] }));
    utimesSync(path, new Date(), new Date(Date.now() + 5_000)); // a distinct mtime even on coarse clocks
    expect(await get(await signWith(b))).toBe(200);
    expect(await get(await signWith(a))).toBe(401);
  });

  it('a file that turns unreadable keeps the last good key set and logs one warning for it', async () => {
    const a = await signingKey('ES256', 'a');
    const path = join(tmp, 'flaky.json');
    writeFileSync(path, JSON.stringify({ keys: [a.publicJwk] }));
    const w = makeWorld({ config: { jwt: { jwksFile: path } } });
    await w.store.createAccount({ name: '', subject: 'user-1', tier: 'free', monthlyLimit: null, now: w.clock() });
    writeFileSync(path, '{ half-written');
    utimesSync(path, new Date(), new Date(Date.now() + 10_000));
    for (let i = 0; i < 3; i++) expect((await w.call('/api/v1/account', { headers: bearer(await signWith(a)) })).status).toBe(200);
    expect(w.logs.filter((l) => l.msg === 'JWKS file reload failed; keeping the previous key set')).toHaveLength(1);
  });
});

describe('configuration mistakes stop the start with a clear reason', () => {
  const pub = join(tmp, 'pub.json');
  const priv = join(tmp, 'priv.json');

  it.each<[string, () => Promise<JwtConfig> | JwtConfig, RegExp]>([
    ['two key sources', () => ({ secret: SECRET, jwksUrl: 'https://idp.test.invalid/jwks' }), /one JWT key source/],
    ['a secret shorter than 32 bytes', () => ({ secret: 'short' }), /at least 32 bytes/],
    ['an HMAC algorithm with a JWKS', () => ({ jwksUrl: 'https://idp.test.invalid/jwks', algorithms: ['RS256', 'HS256'] }), /HS256 cannot be used with a JWKS/],
    ['alg none with a JWKS', () => ({ jwksUrl: 'https://idp.test.invalid/jwks', algorithms: ['none'] }), /none cannot be used/],
    ['a public-key algorithm with a secret', () => ({ secret: SECRET, algorithms: ['RS256'] }), /RS256 cannot be used with a shared secret/],
    ['a JWKS URL that is not http(s)', () => ({ jwksUrl: 'file:///etc/jwks.json' }), /must be http/],
    ['a missing JWKS file', () => ({ jwksFile: join(tmp, 'nope.json') }), /ENOENT|no such file/],
    ['a JWKS file with a private key', async () => {
      const { exportJWK, generateKeyPair } = await import('jose');
      const { privateKey } = await generateKeyPair('ES256', { extractable: true });
      writeFileSync(priv, JSON.stringify({ keys: [await exportJWK(privateKey)] }));
      return { jwksFile: priv };
    }, /public keys only/],
    ['a JWKS file that is not a key set', () => (writeFileSync(pub, '{"keys": 3}'), { jwksFile: pub }), /not a JSON Web Key Set/],
  ])('%s', async (_name, make, message) => {
    const c = await make();
    expect(() => createJwtVerifier(c, noLog)).toThrow(message);
  });

  it('the app itself refuses to build with a bad JWT configuration', () => {
    expect(() => makeWorld({ config: { jwt: { secret: 'short' } } })).toThrow(/at least 32 bytes/);
  });
});

describe('settings from env and flags', () => {
  it('reads every FCS_JWT_* variable, lists split on commas, numbers parsed', () => {
    const c = configFrom(
      {
        FCS_JWT_JWKS_URL: 'https://idp.test.invalid/.well-known/jwks.json',
        FCS_JWT_ISSUER: 'https://idp.test.invalid/',
        FCS_JWT_AUDIENCE: 'facility-score, fcs-admin',
        FCS_JWT_ALGORITHMS: 'RS256,ES256',
        FCS_JWT_TIER_CLAIM: 'https://example.test/plan',
        FCS_JWT_TIER_MAP: 'gold=enterprise,silver=starter',
        FCS_JWT_CLOCK_TOLERANCE_SEC: '5',
        FCS_JWKS_COOLDOWN_MS: '1000',
        FCS_JWKS_CACHE_MAX_AGE_MS: '60000',
      },
      {},
    ).jwt;
    expect(c).toEqual({
      jwksUrl: 'https://idp.test.invalid/.well-known/jwks.json',
      issuer: 'https://idp.test.invalid/',
      audience: ['facility-score', 'fcs-admin'],
      algorithms: ['RS256', 'ES256'],
      tierClaim: 'https://example.test/plan',
      tierMap: { gold: 'enterprise', silver: 'starter' },
      clockToleranceSec: 5,
      jwksCooldownMs: 1000,
      jwksCacheMaxAgeMs: 60000,
    });
    expect(jwtModeOf(c)).toBe('jwks-url');
  });

  it('flags win over env; the secret comes from env only', () => {
    const config = configFrom({ FCS_JWT_ISSUER: 'env-iss', FCS_JWT_SECRET: SECRET, FCS_SIGNUP_TIER: 'free' }, { 'jwt-issuer': 'flag-iss', 'signup-tier': 'starter' });
    expect(config.jwt).toMatchObject({ issuer: 'flag-iss', secret: SECRET });
    expect(config.signupTier).toBe('starter');
  });

  it.each([
    ['FCS_JWT_TIER_MAP=gold=diamond', { FCS_JWT_TIER_MAP: 'gold=diamond' }, /invalid configuration/],
    ['FCS_JWT_TIER_MAP=gold', { FCS_JWT_TIER_MAP: 'gold' }, /not claim-value=tier/],
    ['FCS_JWT_CLOCK_TOLERANCE_SEC=soon', { FCS_JWT_CLOCK_TOLERANCE_SEC: 'soon' }, /invalid configuration/],
  ])('%s is refused', (_name, env, message) => {
    expect(() => configFrom(env, {})).toThrow(message);
  });

  it('nothing set means account login is off', () => {
    expect(jwtModeOf(configFrom({}, {}).jwt)).toBe('off');
  });
});
