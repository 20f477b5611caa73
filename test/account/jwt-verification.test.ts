import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { exportSPKI, SignJWT } from 'jose';
import { makeWorld, json, type TestWorld } from '../helpers';
import { AUDIENCE, bearer, claims, ISSUER, jwksServer, NOW_SEC, signHs, signingKey, signWith, unsigned, type SigningKey } from './support';

const INVALID = 'Invalid or expired account token: sign in again to get a fresh one';

/** A world whose account login trusts `url`, with an account for `user-1` so a good token gets 200. */
async function worldTrusting(url: string, extra: Record<string, unknown> = {}): Promise<TestWorld> {
  const w = makeWorld({ config: { jwt: { jwksUrl: url, issuer: ISSUER, audience: [AUDIENCE], jwksCooldownMs: 0, ...extra } } });
  await w.store.createAccount({ name: 'u1', subject: 'user-1', tier: 'starter', monthlyLimit: null, now: w.clock() });
  return w;
}

const getAccount = (w: TestWorld, token: string) => w.call('/api/v1/account', { headers: bearer(token) });

describe('JWT verification against a JWKS URL', () => {
  let rsa: SigningKey;
  let ec: SigningKey;
  let idp: ReturnType<typeof jwksServer>;
  let w: TestWorld;

  beforeAll(async () => {
    rsa = await signingKey('RS256', 'rsa-1');
    ec = await signingKey('ES256', 'ec-1');
    idp = jwksServer([rsa, ec]);
    w = await worldTrusting(idp.url);
  });
  afterAll(() => idp.stop());

  it.each(['RS256', 'ES256'] as const)('a valid %s token from the identity provider opens the account', async (alg) => {
    const res = await getAccount(w, await signWith(alg === 'RS256' ? rsa : ec));
    expect(res.status).toBe(200);
    expect((await json(res)).data).toMatchObject({ subject: 'user-1', tier: 'starter' });
  });

  it('a token that expired 10 s ago still passes inside the 30 s clock tolerance, and 31 s ago does not', async () => {
    expect((await getAccount(w, await signWith(rsa, claims({ exp: NOW_SEC - 10 })))).status).toBe(200);
    expect((await getAccount(w, await signWith(rsa, claims({ exp: NOW_SEC - 31 })))).status).toBe(401);
  });

  const badTokens: [string, () => Promise<string>, RegExp][] = [
    ['alg none (no signature)', async () => unsigned(), /ALG_NOT_ALLOWED/],
    ['alg none with the kid of a real key', async () => unsigned().replace(/^[^.]+/, Buffer.from(JSON.stringify({ alg: 'none', kid: 'rsa-1' })).toString('base64url')), /ALG_NOT_ALLOWED/],
    ['HS256 signed with the RSA public key as the secret (algorithm confusion)', async () => {
      const pem = await exportSPKI(rsa.publicKey);
      return new SignJWT(claims()).setProtectedHeader({ alg: 'HS256', kid: 'rsa-1' }).sign(new TextEncoder().encode(pem));
    }, /ALG_NOT_ALLOWED/],
    ['wrong audience', () => signWith(rsa, claims({ aud: 'someone-else' })), /"aud"/],
    ['no audience', () => signWith(rsa, claims({ aud: undefined })), /missing required "aud"/],
    ['wrong issuer', () => signWith(rsa, claims({ iss: 'https://evil.test.invalid/' })), /"iss"/],
    ['expired an hour ago', () => signWith(rsa, claims({ exp: NOW_SEC - 3600 })), /EXPIRED/],
    ['not valid for another hour (nbf)', () => signWith(rsa, claims({ nbf: NOW_SEC + 3600 })), /"nbf"/],
    ['no exp claim', () => signWith(rsa, claims({ exp: undefined })), /missing required "exp"/],
    ['no sub claim', () => signWith(rsa, claims({ sub: undefined })), /missing required "sub"/],
    ['empty sub claim', () => signWith(rsa, claims({ sub: '   ' })), /sub claim is empty/],
    ['malformed: not a JWT', async () => 'not-a-jwt', /JWS_INVALID/],
    ['malformed: three garbage segments', async () => 'a.b.c', /JWS_INVALID/],
    ['payload changed after signing', async () => {
      const [h, , s] = (await signWith(rsa)).split('.');
      return `${h}.${Buffer.from(JSON.stringify(claims({ sub: 'admin' }))).toString('base64url')}.${s}`;
    }, /SIGNATURE_VERIFICATION_FAILED/],
    ['signed by a different key that claims a trusted kid', async () => signWith({ ...(await signingKey('RS256', 'rsa-1')) }), /SIGNATURE_VERIFICATION_FAILED/],
    ['signed by a key the provider never published (unknown kid)', async () => signWith(await signingKey('ES256', 'stranger')), /NO_MATCHING_KEY/],
    ['header alg ES256 on the RSA key id', async () => signWith({ ...ec, kid: 'rsa-1' }), /NO_MATCHING_KEY/],
    ['a megabyte-long token', async () => `${'a'.repeat(1 << 20)}.b.c`, /longer than/],
  ];

  it.each(badTokens)('%s: 401 UNAUTHENTICATED with the same message, reason logged without the token', async (_name, make, reason) => {
    const token = await make();
    w.logs.length = 0;
    const res = await getAccount(w, token);
    const body = await json(res);
    expect(res.status).toBe(401);
    expect(body.error).toEqual({ code: 'UNAUTHENTICATED', message: INVALID, status: 401 });
    expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
    const logged = w.logs.find((l) => l.msg === 'account token rejected');
    expect(logged?.request_id).toBe(body.meta.request_id);
    expect(String(logged?.reason)).toMatch(reason);
    expect(JSON.stringify(w.logs)).not.toContain(token.slice(0, 40));
  });

  it.each([
    ['no Authorization header', {}],
    ['a Basic Authorization header', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['an API key instead of a JWT', { 'x-api-key': 'fcs_live_00000000000000000000000000000000' }],
    ['Bearer with nothing after it', { authorization: 'Bearer ' }],
  ])('%s: 401 that says a Bearer JWT is needed', async (_name, headers) => {
    const res = await w.call('/api/v1/account', { headers });
    expect(res.status).toBe(401);
    expect((await json(res)).error.message).toContain('Authorization: Bearer');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('with RS256 as the only allowed algorithm, an ES256 token from the same provider is refused', async () => {
    const strict = await worldTrusting(idp.url, { algorithms: ['RS256'] });
    expect((await getAccount(strict, await signWith(rsa))).status).toBe(200);
    expect((await getAccount(strict, await signWith(ec))).status).toBe(401);
  });

  it('without a configured issuer or audience those claims are not required', async () => {
    const lax = makeWorld({ config: { jwt: { jwksUrl: idp.url, jwksCooldownMs: 0 } } });
    await lax.store.createAccount({ name: '', subject: 'user-1', tier: 'free', monthlyLimit: null, now: lax.clock() });
    expect((await getAccount(lax, await signWith(rsa, claims({ iss: undefined, aud: undefined })))).status).toBe(200);
  });
});

describe('JWKS key rotation', () => {
  it('a new kid is accepted after a refetch, and a key removed from the set is refused', async () => {
    const [a, b] = [await signingKey('RS256', 'old'), await signingKey('ES256', 'new')];
    const idp = jwksServer([a]);
    try {
      const w = await worldTrusting(idp.url);
      expect((await getAccount(w, await signWith(a))).status).toBe(200);
      expect(idp.fetches).toBe(1);
      expect((await getAccount(w, await signWith(a))).status).toBe(200);
      expect(idp.fetches).toBe(1); // served from the cache

      idp.setKeys([b]);
      expect((await getAccount(w, await signWith(b))).status).toBe(200);
      expect(idp.fetches).toBe(2);
      expect((await getAccount(w, await signWith(a))).status).toBe(401);
    } finally {
      idp.stop();
    }
  });

  it('a removed key is refused once the cached set is older than its max age, even with no new kid', async () => {
    const [a, b] = [await signingKey('RS256', 'a'), await signingKey('RS256', 'b')];
    const idp = jwksServer([a, b]);
    try {
      const w = await worldTrusting(idp.url, { jwksCooldownMs: 60_000, jwksCacheMaxAgeMs: 50 });
      expect((await getAccount(w, await signWith(a))).status).toBe(200);
      idp.setKeys([b]);
      await Bun.sleep(80);
      expect((await getAccount(w, await signWith(a))).status).toBe(401);
      expect((await getAccount(w, await signWith(b))).status).toBe(200);
    } finally {
      idp.stop();
    }
  });

  it('tokens with made-up kids do not make the service hammer the identity provider (cooldown)', async () => {
    const a = await signingKey('ES256', 'a');
    const idp = jwksServer([a]);
    try {
      const w = await worldTrusting(idp.url, { jwksCooldownMs: 30_000 });
      expect((await getAccount(w, await signWith(a))).status).toBe(200);
      const stranger = await signingKey('ES256', 'x');
      for (let i = 0; i < 20; i++) {
        expect((await getAccount(w, await signWith({ ...stranger, kid: `random-${i}` }))).status).toBe(401);
      }
      expect(idp.fetches).toBe(1);
    } finally {
      idp.stop();
    }
  });
});

describe('an app rebuilt over the same process parts (SIGHUP index hand-over)', () => {
  it('keeps the cached JWKS instead of fetching it again', async () => {
    const a = await signingKey('ES256', 'a');
    const idp = jwksServer([a]);
    try {
      const jwt = { jwksUrl: idp.url };
      const first = makeWorld({ config: { jwt } });
      // serve builds the verifier once (processParts) and hands it to every app it builds.
      const rebuilt = makeWorld({ config: { jwt }, deps: { jwtVerifier: first.deps.jwtVerifier } });
      for (const w of [first, rebuilt]) {
        await w.store.createAccount({ name: '', subject: 'user-1', tier: 'free', monthlyLimit: null, now: w.clock() });
        expect((await getAccount(w, await signWith(a))).status).toBe(200);
      }
      expect(idp.fetches).toBe(1);
    } finally {
      idp.stop();
    }
  });
});

describe('identity provider unreachable', () => {
  it('a JWKS that cannot be fetched is 503 SERVICE_UNAVAILABLE with Retry-After, not a 401', async () => {
    const idp = jwksServer([]);
    const url = idp.url;
    idp.stop();
    const w = await worldTrusting(url);
    const res = await getAccount(w, await signWith(await signingKey('RS256', 'k')));
    expect(res.status).toBe(503);
    expect((await json(res)).error.code).toBe('SERVICE_UNAVAILABLE');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(w.logs.some((l) => l.msg === 'account token key source unavailable' && String(l.reason).includes('JWKS'))).toBe(true);
  });

  it('a JWKS endpoint answering 500 is 503 as well', async () => {
    const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('boom', { status: 500 }) });
    try {
      const w = await worldTrusting(`http://127.0.0.1:${server.port}/jwks`);
      expect((await getAccount(w, await signWith(await signingKey('RS256', 'k')))).status).toBe(503);
    } finally {
      server.stop(true);
    }
  });
});

/** Claims as JSON text with `exp` written verbatim: JSON.stringify cannot write 1e309 or keep a string. */
function rawClaims(exp: string): string {
  return `{"sub":"user-1","iat":${NOW_SEC},"exp":${exp}}`;
}

/** HS256 over payload text exactly as given. */
async function signRawHs(payload: string, secret: string): Promise<string> {
  const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64url');
  const input = `${b64(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64(payload)}`;
  const mac = new Bun.CryptoHasher('sha256', secret).update(input).digest();
  return `${input}.${b64(mac)}`;
}

describe('HS256 shared-secret mode (no identity provider)', () => {
  const w = makeWorld({ config: { jwt: { secret: 'hs-secret-for-tests-0123456789abcdef' } } });
  const secret = 'hs-secret-for-tests-0123456789abcdef';

  beforeAll(async () => {
    await w.store.createAccount({ name: '', subject: 'user-1', tier: 'free', monthlyLimit: null, now: w.clock() });
  });

  it('a token signed with the shared secret is accepted', async () => {
    expect((await getAccount(w, await signHs(claims(), secret))).status).toBe(200);
  });

  it.each([
    ['signed with another secret', () => signHs(claims(), 'another-secret-0123456789abcdefghijkl')],
    ['HS512 when only HS256 is allowed', () => signHs(claims(), secret, 'HS512')],
    ['RS256 from a key pair', async () => signWith(await signingKey('RS256', 'k'))],
    ['alg none', async () => unsigned()],
    ['expired', () => signHs(claims({ exp: NOW_SEC - 3600 }), secret)],
    ['exp 1e309 (Infinity once parsed: would never expire)', async () => signRawHs(rawClaims('1e309'), secret)],
    ['exp as a fraction', async () => signRawHs(rawClaims(`${NOW_SEC + 600}.5`), secret)],
    ['exp as a string', async () => signRawHs(rawClaims(`"${NOW_SEC + 600}"`), secret)],
    ['exp 25 hours out (past the default 24 h maximum lifetime)', () => signHs(claims({ exp: NOW_SEC + 25 * 3600 }), secret)],
    ['exp in the year 275760', () => signHs(claims({ exp: 8.64e12 }), secret)],
    ['iat not finite', async () => signRawHs(rawClaims(String(NOW_SEC + 600)).replace(`"iat":${NOW_SEC}`, '"iat":-1e309'), secret)],
  ])('%s is refused with 401', async (_name, make) => {
    const res = await getAccount(w, await make());
    expect(res.status).toBe(401);
    expect((await json(res)).error.message).toBe(INVALID);
  });

  it('a token that lives 23 hours passes; the maximum lifetime is configurable', async () => {
    expect((await getAccount(w, await signHs(claims({ exp: NOW_SEC + 23 * 3600 }), secret))).status).toBe(200);
    const short = makeWorld({ config: { jwt: { secret, maxLifetimeSec: 3600 } } });
    await short.store.createAccount({ name: '', subject: 'user-1', tier: 'free', monthlyLimit: null, now: short.clock() });
    expect((await getAccount(short, await signHs(claims({ exp: NOW_SEC + 1800 }), secret))).status).toBe(200);
    expect((await getAccount(short, await signHs(claims({ exp: NOW_SEC + 2 * 3600 }), secret))).status).toBe(401);
  });
});
